import ModalwatchABI
public import RuleHost

/// The rules that run for one app: its edition, each rule's parameters and
/// severity in force, and for each event type the rules that want it.
// @unchecked: `storage` (the parameter values the `Dispatch` entries and `ActiveRule`s point
// into) is written only in `init` and freed only in `deinit`; nothing is mutable after `init`.
public final class RuleProfile: @unchecked Sendable {
    /// What the engine needs to call one rule: plain values, no reference counting.
    struct Dispatch {
        let entry: RuleEntry
        let moduleState: UnsafeMutableRawPointer?
        let parameters: UnsafePointer<Int64>
        let parameterDeclarations: UnsafePointer<mw_param>?
        let parameterCount: UInt32
        let ruleIndex: UInt32
        /// The rule's index in the catalog (for the rule-call marker).
        let catalogIndex: UInt32
        let seed: UInt64
        let ordinal: Int
        let fire: FireDiscipline
        /// Whether the rule judges English wording only (`RuleLanguages.english`): not called
        /// for an event whose texts are in another language (rules.md, "Languages").
        let englishOnly: Bool
        /// Whether the rule declares the languages it judges as English or localized: the host
        /// decides the event's language (`mw_call.texts_language`) before calling it.
        let judgesLanguage: Bool
        /// The rule's violation template (the profile's `rules` keeps it): reached in a
        /// report without copying the `ActiveRule` and its descriptor.
        unowned(unsafe) let template: ViolationTemplate
    }

    /// The edition the app is judged by.
    public let edition: Edition
    /// Every rule that applies in the edition and is enabled, in catalog order.
    public let rules: [ActiveRule]
    /// Rules by `mw_event_type`, each list in catalog order.
    let dispatchByType: [[Dispatch]]
    /// `dispatchByType` in one block: the rules of type `t` are `dispatchList[dispatchStart[t] ..<
    /// dispatchStart[t + 1]]`, reached on every event without reference counting.
    private let dispatchList: UnsafeMutablePointer<Dispatch>
    private let dispatchStart: UnsafeMutablePointer<Int>
    private let dispatchCount: Int
    private let storage: UnsafeMutablePointer<Int64>
    private let storageCount: Int

    /// The rules that want events of `type` (an `mw_event_type` below `MW_EVENT_TYPE_COUNT`), in catalog order.
    @inline(__always)
    func dispatches(forType type: Int) -> UnsafeBufferPointer<Dispatch> {
        UnsafeBufferPointer(
            start: dispatchList + dispatchStart[type],
            count: dispatchStart[type + 1] - dispatchStart[type]
        )
    }

    /// Resolves the profile for `app` (nil: the default profile).
    public init(catalog: RuleCatalog, configuration: EngineConfiguration, app: String?) {
        let appOverride = app.flatMap { configuration.apps[$0] }
        let edition = appOverride?.edition ?? configuration.defaultEdition
        self.edition = edition
        let all = catalog.rules
        let total = all.reduce(0) { $0 + $1.parameters.count }
        storageCount = max(total, 1)
        storage = .allocate(capacity: storageCount)
        storage.initialize(repeating: 0, count: storageCount)
        var offset = 0
        var active: [ActiveRule] = []
        var catalogIndex: [String: UInt32] = [:]
        for (index, rule) in all.enumerated() where catalogIndex[rule.id] == nil {
            catalogIndex[rule.id] = UInt32(index)
        }
        for rule in all {
            var override = configuration.rules[rule.id] ?? .init()
            if let perApp = appOverride?.rules[rule.id] { override = override.merged(with: perApp) }
            let base = storage + offset
            for (i, parameter) in rule.parameters.enumerated() {
                base[i] = override.parameters[parameter.name] ?? parameter.defaultValue
            }
            offset += rule.parameters.count
            guard rule.applies(in: edition), override.enabled ?? true, configuration.quarantined[rule.id] == nil else {
                continue
            }
            let seed = Hashing.fnv1a(rule.id)
            let severity = override.severity ?? rule.severity
            active.append(
                ActiveRule(
                    descriptor: rule,
                    seed: seed,
                    severity: severity,
                    parameters: UnsafePointer(base),
                    parameterCount: rule.parameters.count,
                    template: ViolationTemplate(descriptor: rule, seed: seed, severity: severity, edition: edition)
                )
            )
        }
        rules = active
        dispatchByType = (0..<Int(MW_EVENT_TYPE_COUNT.rawValue)).map { type in
            active.enumerated().compactMap { ordinal, rule in
                guard rule.descriptor.wants(eventType: UInt32(type)) else { return nil }
                return Dispatch(
                    entry: rule.descriptor.entry,
                    moduleState: rule.descriptor.moduleState,
                    parameters: rule.parameters,
                    parameterDeclarations: rule.descriptor.parameterDeclarations,
                    parameterCount: UInt32(rule.parameterCount),
                    ruleIndex: rule.descriptor.index,
                    catalogIndex: catalogIndex[rule.descriptor.id] ?? 0,
                    seed: rule.seed,
                    ordinal: ordinal,
                    fire: rule.descriptor.fire,
                    englishOnly: rule.descriptor.languages == .english,
                    judgesLanguage: rule.descriptor.languages == .english || rule.descriptor.languages == .localized,
                    template: rule.template
                )
            }
        }
        let flat = dispatchByType.flatMap { $0 }
        dispatchCount = flat.count
        dispatchList = .allocate(capacity: max(flat.count, 1))
        dispatchList.initialize(from: flat, count: flat.count)
        dispatchStart = .allocate(capacity: dispatchByType.count + 1)
        var start = 0
        for (type, list) in dispatchByType.enumerated() {
            dispatchStart[type] = start
            start += list.count
        }
        dispatchStart[dispatchByType.count] = start
    }

    deinit {
        dispatchList.deinitialize(count: dispatchCount)
        dispatchList.deallocate()
        dispatchStart.deallocate()
        storage.deinitialize(count: storageCount)
        storage.deallocate()
    }
}
