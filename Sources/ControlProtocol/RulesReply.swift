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

    public init(fields: JSONFields) throws(JSONFields.Mismatch) {
        edition = try fields.string("edition")
        rules = try fields.array("rules") { value throws(JSONFields.Mismatch) in try RuleInfo(value) }
    }

    public var fields: [String: JSONValue] {
        ["edition": .string(edition), "rules": .array(rules.map(\.json))]
    }
}
