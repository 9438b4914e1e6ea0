/// The `violations` reply: stored violations, newest first, each exactly as published.
public struct ViolationsReply: ControlReplyBody {
    /// The violations: ``JSONValue/raw(_:)`` (the stored bytes) in the daemon, parsed objects
    /// in a client.
    public var violations: [JSONValue]
    /// How many.
    public var count: Int
    /// Where the next page starts (send it as `cursor`), or nil when these were the last.
    public var next: String?

    /// A reply.
    public init(violations: [JSONValue], next: String? = nil) {
        self.violations = violations
        count = violations.count
        self.next = next
    }

    /// Reads a reply's fields; a missing or mistyped one is a mismatch naming it.
    public init(fields: JSONFields) throws(JSONFields.Mismatch) {
        violations = try fields.array("violations") { $0 }
        count = try fields.int("count")
        next = try fields.optionalString("next")
    }

    /// The reply's fields as they go on the wire.
    public var fields: [String: JSONValue] {
        ["violations": .array(violations), "count": .int(count), "next": .nullable(next)]
    }
}
