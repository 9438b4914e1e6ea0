/// A rule: its metadata (rules.md, "Rule metadata a module must give") and its
/// judgement. A rule is a type with static members only; it keeps no state of
/// its own (per-session and per-app state lives in the host: `RuleCall.counterAdd`,
/// `RuleCall.windowPush`).
///
/// ```swift
/// enum ModalMissingTitle: Rule {
///     static let id = "modal-missing-title"
///     static let severity = Severity.info
///     static let editions = Editions.all
///     static let events: [EventType] = [.modalPresented]
///     static let fire = Fire.oncePerSubject
///     static let summary = "A modal view has no title."
///     static let guideline = "Display a title that identifies the task"
///     static let source = "2009: Designing a Modal View; ios7: Modal View; current: Modality"
///     static let examples: [Example] = [...]
///     static func judge(_ call: RuleCall) {
///         guard call.event.title.isBlank else { return }
///         call.report(subject: call.event.id, message: "The modal view has no title.")
///     }
/// }
/// ```
public protocol Rule {
    /// Stable id, e.g. `alert-frequency`.
    static var id: String { get }
    /// Revision of the rule's logic, raised when its verdicts change (default 1).
    static var rev: UInt32 { get }
    /// Its severity.
    static var severity: Severity { get }
    /// The editions it applies in; the host calls it only in these.
    static var editions: Editions { get }
    /// The event types it wants; the host calls it only for these.
    static var events: [EventType] { get }
    /// How often it may fire; the host enforces it.
    static var fire: Fire { get }
    /// The languages it judges (rules.md, "Languages"; default `.undeclared`: every text, as
    /// before languages were declared).
    static var languages: Languages { get }
    /// Its parameters (default none): each a `Parameter` declared once as a static
    /// member and read in `judge` as `call[member]`. The order is the order
    /// `modalwatch rules` lists them in, nothing more.
    static var parameters: [any ParameterDeclaration] { get }
    /// One line: what it checks, and any decision the catalogue left open.
    static var summary: String { get }
    /// The guideline it applies, short, e.g. `Minimize alerts`.
    static var guideline: String { get }
    /// HIG edition and section, e.g. `2009: Using Alerts; ios7: Alert; current: Alerts`.
    static var source: String { get }
    /// Worked examples: at least one stream that triggers it and one that does not.
    static var examples: [Example] { get }

    /// Judges one event: calls `call.report` every time the rule's condition holds.
    static func judge(_ call: RuleCall)
}

extension Rule {
    /// 1
    public static var rev: UInt32 { 1 }
    /// None.
    public static var parameters: [any ParameterDeclaration] { [] }
    /// `.undeclared`
    public static var languages: Languages { .undeclared }
}
