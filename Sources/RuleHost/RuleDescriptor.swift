public import ModalwatchABI

/// The C function a rule runs for each event.
public typealias RuleEntry = @convention(c) (UnsafePointer<mw_call>?) -> Void

/// One rule as a module declared it, checked and copied out of the module's C description.
// @unchecked: `entry` and `moduleState` belong to a module that is never unloaded, so they stay
// valid; the host calls a module's rules from one thread at a time (the ingest thread, or
// `modalwatch check`'s), which is what the C ABI asks of it.
public struct RuleDescriptor: @unchecked Sendable {
    /// The stable rule id, e.g. `alert-frequency`.
    public var id: String
    /// Revision of the rule's logic.
    public var rev: Int
    /// The module that declares it.
    public var module: String
    /// The rule's own severity.
    public var severity: Severity
    /// The editions it applies in, oldest first.
    public var editions: [Edition]
    /// `MW_EDITION_*` bits of `editions`.
    public var editionMask: UInt32
    /// `MW_EVENT_BIT(type)` of the events it wants.
    public var eventMask: UInt32
    /// How often it may fire.
    public var fire: FireDiscipline
    /// The languages it judges (`.undeclared` for a module built against ABI 1.4 or older).
    public var languages: RuleLanguages = .undeclared
    /// Its parameters, in declared order.
    public var parameters: [RuleParameter]
    /// One line.
    public var summary: String
    /// The guideline it applies, short.
    public var guideline: String
    /// HIG edition and section.
    public var source: String
    /// Worked examples: the rule's tests.
    public var examples: [RuleExample]
    /// Index of the rule in its module's `rules` array (`mw_call.rule_index`).
    public var index: UInt32
    /// The rule's entry point.
    public var entry: RuleEntry
    /// The module's state (what its `on_init` stored, else `mw_module.state`), passed back in every call.
    public var moduleState: UnsafeMutableRawPointer?
    /// The module's declarations of the rule's parameters (`mw_call.param_decls`, ABI 1.2).
    public var parameterDeclarations: UnsafePointer<mw_param>?
    /// The module's run-time record: its log and error count.
    public var runtime: ModuleRuntime?
    /// The ABI minor the module was built against (`mw_module.abi_minor`): which fields of
    /// `mw_report` it fills (`suggestion` since 1.3).
    public var moduleABIMinor: UInt32 = 0

    /// Whether the module's reports carry `mw_report.suggestion` (built against ABI 1.3 or later).
    public var reportsSuggestion: Bool { moduleABIMinor >= 3 }

    /// Whether the rule runs for events of `type` (an `mw_event_type` value).
    public func wants(eventType type: UInt32) -> Bool {
        type < 32 && eventMask & (1 << type) != 0
    }

    /// The kind of presentation the rule judges: the one kind among the events it wants
    /// (`alert.presented` and `alert.dismissed` → `alert`), nil when it wants events of several
    /// kinds (`modal-frequency`) or of none (`nav.push`).
    public var presentationKind: PresentationKind? {
        var kind: PresentationKind?
        for type in 0..<32 where wants(eventType: UInt32(type)) {
            guard let wanted = PresentationKind(eventType: UInt32(type)) else { continue }
            if kind != nil, kind != wanted { return nil }
            kind = wanted
        }
        return kind
    }

    /// Whether the rule applies in `edition`.
    public func applies(in edition: Edition) -> Bool {
        editionMask & edition.rawValue != 0
    }
}
