/// `{"cmd": "violations", "app": A?, "rule": R?, "session": ID?, "locale": L?, "since": D?, "limit": N?}`:
/// the violation history, newest first.
public struct ViolationsRequest: ControlCommand {
    /// The reply to this request.
    public typealias Reply = ViolationsReply

    /// From when.
    public enum Since: Sendable, Equatable {
        /// A duration back from now, as text (`"15m"`, `"2h"`); the daemon reads it.
        case duration(String)
        /// A wall-clock time, ms since the epoch.
        case wallClock(Int64)

        var json: JSONValue {
            switch self {
            case .duration(let text): .string(text)
            case .wallClock(let ms): .integer(ms)
            }
        }
    }

    /// `violations`.
    public static let name = "violations"
    /// The largest `limit`.
    public static let maximumLimit = 10_000
    /// The refusal for a `since` that is neither a duration nor a time.
    public static let badSince = "since must be a duration such as \"15m\" or \"2h\", or a wall-clock time in ms"

    /// Only this app.
    public var app: String?
    /// Only this rule.
    public var rule: String?
    /// Only this session.
    public var session: String?
    /// Only violations in this language: the tag and the tags that extend it (`de`: `de`, `de-DE`).
    public var locale: String?
    /// Only violations found since then.
    public var since: Since?
    /// At most this many (0 to ``maximumLimit``).
    public var limit: Int
    /// Where this page starts: the `next` of the previous reply (nil: the newest).
    public var cursor: String?
    /// The most bytes of violations one reply carries: past it the reply stops early and
    /// says `next` (the daemon's bound on a reply's memory; docs/RELIABILITY.md).
    public static let maximumReplyBytes = 256 << 10

    /// A request.
    public init(
        app: String? = nil,
        rule: String? = nil,
        session: String? = nil,
        locale: String? = nil,
        since: Since? = nil,
        limit: Int = 100,
        cursor: String? = nil
    ) {
        self.cursor = cursor
        self.locale = locale
        self.app = app
        self.rule = rule
        self.session = session
        self.since = since
        self.limit = limit
    }

    init(_ request: ControlRequestFields) throws(ControlRefusal) {
        app = try request.string("app")
        rule = try request.string("rule")
        session = try request.string("session")
        locale = try request.string("locale")
        limit = try request.whole("limit", default: 100, range: 0...Self.maximumLimit)
        cursor = try request.string("cursor")
        switch request.fields["since"] {
        case nil, .null?: since = nil
        case .string(let text)?: since = .duration(text)
        case let value?:
            guard let ms = value.wholeNumber else { throw ControlRefusal(Self.badSince) }
            since = .wallClock(Int64(ms))
        }
    }

    /// The filters set, and `limit`.
    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["limit": .int(limit)]
        if let app { fields["app"] = .string(app) }
        if let rule { fields["rule"] = .string(rule) }
        if let session { fields["session"] = .string(session) }
        if let locale { fields["locale"] = .string(locale) }
        if let since { fields["since"] = since.json }
        if let cursor { fields["cursor"] = .string(cursor) }
        return fields
    }
}
