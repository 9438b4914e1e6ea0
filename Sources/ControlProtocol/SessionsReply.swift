/// The `sessions` reply: the live sessions matching the request.
public struct SessionsReply: ControlReplyBody {
    /// Live sessions matching `app`.
    public var total: Int
    /// The daemon's wall clock, ms.
    public var now: Int64
    /// At most `limit` of them, in the order asked, each with `alertsWindow` and `windowMs`.
    public var sessions: [SessionInfo]
    /// Where the next page starts (send it as `cursor`), or nil when no session follows these.
    /// Absent from an older daemon's reply (read as nil).
    public var next: String?

    /// A reply.
    public init(total: Int, now: Int64, sessions: [SessionInfo], next: String? = nil) {
        self.total = total
        self.now = now
        self.sessions = sessions
        self.next = next
    }

    /// Reads a reply's fields; a missing or mistyped one is a mismatch naming it.
    public init(fields: JSONFields) throws(JSONFields.Mismatch) {
        total = try fields.int("total")
        now = try fields.int64("now")
        sessions = try fields.array("sessions") { value throws(JSONFields.Mismatch) in try SessionInfo(value) }
        next = try fields.optionalString("next")
    }

    /// The reply's fields as they go on the wire.
    public var fields: [String: JSONValue] {
        ["total": .int(total), "now": .integer(now), "sessions": .array(sessions.map(\.json)), "next": .nullable(next)]
    }
}
