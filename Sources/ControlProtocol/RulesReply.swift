/// The `rules` reply: the default edition in force and every loaded rule.
public struct RulesReply: ControlReplyBody {
    /// The default edition in force.
    public var edition: String
    /// Every loaded rule.
    public var rules: [RuleInfo]

    /// A reply.
    public init(edition: String, rules: [RuleInfo]) {
        self.edition = edition
        self.rules = rules
    }

    /// Reads a reply's fields; a missing or mistyped one is a mismatch naming it.
    public init(fields: JSONFields) throws(JSONFields.Mismatch) {
        edition = try fields.string("edition")
        rules = try fields.array("rules") { value throws(JSONFields.Mismatch) in try RuleInfo(value) }
    }

    /// The reply's fields as they go on the wire.
    public var fields: [String: JSONValue] {
        ["edition": .string(edition), "rules": .array(rules.map(\.json))]
    }
}
