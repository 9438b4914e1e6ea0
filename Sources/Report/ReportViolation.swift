public import CatalogueVocabulary

/// One violation as the report counts it: the fields of a published violation that it needs.
public struct ReportViolation: Sendable, Equatable {
    /// Rule id.
    public var rule: String
    /// Severity in force.
    public var severity: Severity
    /// Bundle id.
    public var app: String
    /// Session id.
    public var session: String
    /// Event time of the triggering event (ms).
    public var ts: Int64
    /// The presentation it is about, or nil.
    public var subject: String?
    /// What the subject is, when the violation says (its `events` hold the subject's presented or
    /// dismissed event); nil leaves it to the rule's metadata (`ReportRule.kind`).
    public var subjectKind: PresentationKind?
    /// Its message, when the source gives it cheaply (kept only for the worst presentations).
    public var message: String?
    /// Its suggestion, when it has one (kept only for the worst presentations).
    public var suggestion: String?
    /// The corrected form the rule derived, from its evidence (`suggested_title`,
    /// `suggested_message`, `suggested_buttons`), when it gave one.
    public var corrected: CorrectedPresentation?
    /// The language of the texts it judged (its `locale`, `de-DE`), or nil when undetermined.
    public var locale: String?

    /// Creates a violation.
    public init(
        rule: String,
        severity: Severity,
        app: String,
        session: String,
        ts: Int64,
        subject: String?,
        message: String? = nil,
        suggestion: String? = nil,
        corrected: CorrectedPresentation? = nil,
        locale: String? = nil,
        subjectKind: PresentationKind? = nil
    ) {
        self.locale = locale
        self.subjectKind = subjectKind
        self.rule = rule
        self.severity = severity
        self.app = app
        self.session = session
        self.ts = ts
        self.subject = subject
        self.message = message
        self.suggestion = suggestion
        self.corrected = corrected
    }
}
