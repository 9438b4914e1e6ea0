/// `{"cmd": "sessions", "app": A?, "sort": S?, "limit": N?, "cursor": C?}`: the live sessions,
/// in pages of at most ``maximumReplyBytes`` of sessions (the reply's `next`, sent back as `cursor`).
public struct SessionsRequest: ControlCommand {
    /// The reply to this request.
    public typealias Reply = SessionsReply

    /// How the sessions are ordered.
    public enum Sort: String, Sendable, CaseIterable {
        /// Alerts in the window, then alerts in all.
        case alerts
        /// Modal depth now, then the deepest it has been.
        case depth
        /// Violations found.
        case violations
        /// Most recently active first (the default).
        case recent
        /// Events judged.
        case events
    }

    /// `sessions`.
    public static let name = "sessions"
    /// The largest `limit`.
    public static let maximumLimit = 1_000_000

    /// Only sessions of this app.
    public var app: String?
    /// The order.
    public var sort: Sort
    /// At most this many sessions (0 to ``maximumLimit``).
    public var limit: Int
    /// Where this page starts: the `next` of the previous reply with the same `app` and `sort`
    /// (nil: the first session of the order).
    public var cursor: String?
    /// The most bytes of sessions one reply carries: the same bound as `violations`
    /// (docs/RELIABILITY.md); past it the reply stops early and says `next`.
    public static let maximumReplyBytes = ViolationsRequest.maximumReplyBytes

    /// A request.
    public init(app: String? = nil, sort: Sort = .recent, limit: Int = 50, cursor: String? = nil) {
        self.app = app
        self.sort = sort
        self.limit = limit
        self.cursor = cursor
    }

    init(_ request: ControlRequestFields) throws(ControlRefusal) {
        app = try request.string("app")
        limit = try request.whole("limit", default: 50, range: 0...Self.maximumLimit)
        cursor = try request.string("cursor")
        let sort = try request.string("sort") ?? Sort.recent.rawValue
        guard let order = Sort(rawValue: sort) else {
            throw ControlRefusal("unknown sort '\(sort)'; use alerts, depth, violations, events or recent")
        }
        self.sort = order
    }

    /// `app` and `cursor` when set, `sort`, `limit`.
    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["sort": .string(sort.rawValue), "limit": .int(limit)]
        if let app { fields["app"] = .string(app) }
        if let cursor { fields["cursor"] = .string(cursor) }
        return fields
    }
}
