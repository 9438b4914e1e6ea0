/// The `reload` reply: the configuration was read again and is in force.
public struct ReloadReply: ControlReplyBody {
    /// Always true (a reload refused is a refusal).
    public var reloaded: Bool
    /// What changed, one line.
    public var summary: String

    /// A reply.
    public init(summary: String) {
        reloaded = true
        self.summary = summary
    }

    /// Reads a reply's fields; a missing or mistyped one is a mismatch naming it.
    public init(fields: JSONFields) throws(JSONFields.Mismatch) {
        reloaded = try fields.bool("reloaded")
        summary = try fields.string("summary")
    }

    /// The reply's fields as they go on the wire.
    public var fields: [String: JSONValue] {
        ["reloaded": .bool(reloaded), "summary": .string(summary)]
    }
}
