/// `{"cmd": "session", "id": ID, "events": N?, "violations": N?, "ended": B?}`: one session's
/// stack, timeline, recent events and violations.
public struct SessionRequest: ControlCommand {
    /// The reply to this request.
    public typealias Reply = SessionReply

    /// `session`.
    public static let name = "session"
    /// The most recent events a reply carries (the journal's capacity).
    public static let maximumEvents = 16_384
    /// The most violations a reply carries.
    public static let maximumViolations = 10_000

    /// The session id.
    public var id: String
    /// Its last this many events (0 to ``maximumEvents``).
    public var events: Int
    /// At most this many of its violations (0 to ``maximumViolations``).
    public var violations: Int
    /// Whether a session that ended is answered from the journal, rather than refused.
    public var ended: Bool

    /// A request.
    public init(id: String, events: Int = 20, violations: Int = 50, ended: Bool = false) {
        self.id = id
        self.events = events
        self.violations = violations
        self.ended = ended
    }

    init(_ request: ControlRequestFields) throws(ControlRefusal) {
        guard let id = try request.string("id") else {
            throw ControlRefusal("\"session\" needs \"id\": the session id")
        }
        self.id = id
        events = try request.whole("events", default: 20, range: 0...Self.maximumEvents)
        violations = try request.whole("violations", default: 50, range: 0...Self.maximumViolations)
        ended = try request.flag("ended")
    }

    /// `id`, `events`, `violations`, and `ended` when true.
    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["id": .string(id), "events": .int(events), "violations": .int(violations)]
        if ended { fields["ended"] = .bool(true) }
        return fields
    }
}
