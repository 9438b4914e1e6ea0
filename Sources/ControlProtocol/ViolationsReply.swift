/// The `violations` reply: stored violations, newest first, each exactly as published.
public struct ViolationsReply: ControlReplyBody {
    /// The violations: ``JSONValue/raw(_:)`` (the stored bytes) in the daemon, parsed objects
    /// in a client.
    public var violations: [JSONValue]
    /// How many.
    public var count: Int

    /// A reply.
    public init(violations: [JSONValue]) {
        self.violations = violations
        count = violations.count
    }

    public init(fields: JSONFields) throws(JSONFields.Mismatch) {
        violations = try fields.array("violations") { $0 }
        count = try fields.int("count")
    }

    public var fields: [String: JSONValue] {
        ["violations": .array(violations), "count": .int(count)]
    }
}
