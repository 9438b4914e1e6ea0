/// `{"cmd": "sessions", "app": A?, "sort": S?, "limit": N?}`: the live sessions.
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

    /// A request.
    public init(app: String? = nil, sort: Sort = .recent, limit: Int = 50) {
        self.app = app
        self.sort = sort
        self.limit = limit
    }

    init(_ request: ControlRequestFields) throws(ControlRefusal) {
        app = try request.string("app")
        limit = try request.whole("limit", default: 50, range: 0...Self.maximumLimit)
        let sort = try request.string("sort") ?? Sort.recent.rawValue
        guard let order = Sort(rawValue: sort) else {
            throw ControlRefusal("unknown sort '\(sort)'; use alerts, depth, violations, events or recent")
        }
        self.sort = order
    }

    /// `app` when set, `sort`, `limit`.
    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["sort": .string(sort.rawValue), "limit": .int(limit)]
        if let app { fields["app"] = .string(app) }
        return fields
    }
}
