/// One rule as the `rules` reply (and `modalwatch rules --json`) describes it: metadata from
/// its module, and its parameters with the values in force.
public struct RuleInfo: Sendable, Equatable {
    /// A parameter of the rule.
    public struct Parameter: Sendable, Equatable {
        /// Its name.
        public var name: String
        /// Its kind: `integer` or `duration` (`ParameterKind.name`).
        public var kind: String
        /// The module's default.
        public var defaultValue: Int64
        /// The value in force.
        public var value: Int64
        /// The value in force, for people.
        public var display: String
        /// What it means.
        public var meaning: String

        /// A parameter.
        public init(name: String, kind: String, defaultValue: Int64, value: Int64, display: String, meaning: String) {
            self.name = name
            self.kind = kind
            self.defaultValue = defaultValue
            self.value = value
            self.display = display
            self.meaning = meaning
        }

        init(_ value: JSONValue) throws(JSONFields.Mismatch) {
            let fields = try JSONFields(value, context: "a rule parameter")
            name = try fields.string("name")
            kind = try fields.string("kind")
            defaultValue = try fields.int64("default")
            self.value = try fields.int64("value")
            display = try fields.string("display")
            meaning = try fields.string("meaning")
        }

        var json: JSONValue {
            .object([
                "name": .string(name), "kind": .string(kind), "default": .integer(defaultValue),
                "value": .integer(value),
                "display": .string(display), "meaning": .string(meaning),
            ])
        }
    }

    /// The rule id.
    public var id: String
    /// Its revision.
    public var rev: Int
    /// The module that brings it.
    public var module: String
    /// The severity in force.
    public var severity: String
    /// The editions it applies in.
    public var editions: [String]
    /// The languages it judges (rules.md, "Languages"): `any`, `en` or `localized`; nil when its
    /// module declares none (built against ABI 1.4 or older: every text is judged).
    public var languages: String?
    /// Whether it runs (in the default edition, not turned off).
    public var active: Bool
    /// Its firing discipline (the daemon's reply; not in the CLI's own listing).
    public var fire: String?
    /// One line on what it checks.
    public var summary: String
    /// The guideline it checks.
    public var guideline: String
    /// Where the guideline comes from.
    public var source: String
    /// Its parameters.
    public var parameters: [Parameter]
    /// How many worked examples it has (the daemon's reply; not in the CLI's own listing).
    public var examples: Int?
    /// Why it is in quarantine after a crash or hang in it (the daemon's reply), or nil.
    public var quarantined: String?

    /// A rule.
    public init(
        id: String,
        rev: Int,
        module: String,
        severity: String,
        editions: [String],
        active: Bool,
        fire: String?,
        summary: String,
        guideline: String,
        source: String,
        parameters: [Parameter],
        examples: Int?
    ) {
        self.id = id
        self.rev = rev
        self.module = module
        self.severity = severity
        self.editions = editions
        self.active = active
        self.fire = fire
        self.summary = summary
        self.guideline = guideline
        self.source = source
        self.parameters = parameters
        self.examples = examples
    }

    init(_ value: JSONValue) throws(JSONFields.Mismatch) {
        let fields = try JSONFields(value, context: "a rule")
        id = try fields.string("id")
        rev = try fields.int("rev")
        module = try fields.string("module")
        severity = try fields.string("severity")
        editions = try fields.strings("editions")
        languages = try fields.optionalString("languages")
        active = try fields.bool("active")
        fire = try fields.optionalString("fire")
        summary = try fields.string("summary")
        guideline = try fields.string("guideline")
        source = try fields.string("source")
        parameters = try fields.array("parameters") { value throws(JSONFields.Mismatch) in try Parameter(value) }
        examples = try fields.optionalInt("examples")
        quarantined = try fields.optionalString("quarantined")
    }

    /// The rule as it goes on the wire.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "rev": .int(rev), "module": .string(module), "severity": .string(severity),
            "editions": .array(editions.map(JSONValue.string)), "active": .bool(active),
            "summary": .string(summary), "guideline": .string(guideline), "source": .string(source),
            "parameters": .array(parameters.map(\.json)),
        ]
        if let fire { object["fire"] = .string(fire) }
        if let languages { object["languages"] = .string(languages) }
        if let examples { object["examples"] = .int(examples) }
        if fire != nil { object["quarantined"] = .nullable(quarantined) }
        return .object(object)
    }
}
