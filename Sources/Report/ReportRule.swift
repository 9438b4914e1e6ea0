public import RuleHost

/// What the report says about a rule: the metadata a loaded module gives it.
public struct ReportRule: Sendable, Equatable {
    /// Rule id, e.g. `alert-frequency`.
    public var id: String
    /// The module that judges it.
    public var module: String
    /// The rule's own severity.
    public var severity: Severity
    /// The kind of presentation it judges (`RuleDescriptor.presentationKind`), nil when it
    /// judges several kinds or none, or when the source does not say.
    public var kind: PresentationKind?
    /// The guideline it cites, short.
    public var guideline: String
    /// One sentence: what it checks.
    public var summary: String

    /// Creates a rule entry.
    public init(
        id: String,
        module: String,
        severity: Severity,
        kind: PresentationKind? = nil,
        guideline: String,
        summary: String
    ) {
        self.id = id
        self.module = module
        self.severity = severity
        self.kind = kind
        self.guideline = guideline
        self.summary = summary
    }

    /// The entry for a loaded rule.
    public init(_ descriptor: RuleDescriptor) {
        self.init(
            id: descriptor.id,
            module: descriptor.module,
            severity: descriptor.severity,
            kind: descriptor.presentationKind,
            guideline: descriptor.guideline,
            summary: descriptor.summary
        )
    }
}
