import RuleHost

/// The parts of a violation's JSON and topic that depend only on the rule, its
/// severity in force and the edition: written once per profile, copied per violation.
/// A class, so that reaching it from a report costs one reference, not a copy of the rule.
final class ViolationTemplate {
    /// The rule id.
    let rule: String
    /// A hash of the rule id (`ActiveRule.seed`).
    let seed: UInt64
    /// The rule's module.
    let module: String
    /// The severity in force.
    let severity: Severity
    /// `"rule":"…","rev":N,"module":"…","severity":"…","edition":"…",`
    let head: UnsafeRawBufferPointer
    /// `"guideline":"…",`
    let guideline: UnsafeRawBufferPointer
    /// The rule's summary as a quoted JSON string (the message when a report has none).
    let summary: UnsafeRawBufferPointer
    /// The rule id, the topic's last part.
    let topicRule: UnsafeRawBufferPointer
    /// The bytes the four views above are parts of, at an address that never moves: a view
    /// costs no reference count per violation, as an array's buffer would.
    private let fragments: StableBytes
    /// Whether the rule's module fills `mw_report.suggestion` (ABI 1.3 or later).
    let reportsSuggestion: Bool

    init(descriptor: RuleDescriptor, seed: UInt64, severity: Severity, edition: Edition) {
        rule = descriptor.id
        self.seed = seed
        module = descriptor.module
        self.severity = severity
        var json = JSONBuffer(capacity: 256)
        json.key("rule")
        json.string(descriptor.id)
        json.byte(0x2C)
        json.key("rev")
        json.integer(Int64(descriptor.rev))
        json.byte(0x2C)
        json.key("module")
        json.string(descriptor.module)
        json.byte(0x2C)
        json.key("severity")
        json.string(severity.name)
        json.byte(0x2C)
        json.key("edition")
        json.string(edition.name)
        json.byte(0x2C)
        let headEnd = json.count
        json.key("guideline")
        json.string(descriptor.guideline)
        json.byte(0x2C)
        let guidelineEnd = json.count
        json.string(descriptor.summary)
        let summaryEnd = json.count
        json.text(descriptor.id)
        fragments = StableBytes(json.bytes)
        let all = fragments.buffer
        head = UnsafeRawBufferPointer(rebasing: all[0..<headEnd])
        guideline = UnsafeRawBufferPointer(rebasing: all[headEnd..<guidelineEnd])
        summary = UnsafeRawBufferPointer(rebasing: all[guidelineEnd..<summaryEnd])
        topicRule = UnsafeRawBufferPointer(rebasing: all[summaryEnd...])
        reportsSuggestion = descriptor.reportsSuggestion
    }
}
