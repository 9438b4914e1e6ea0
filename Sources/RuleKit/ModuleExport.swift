public import ModalwatchABI

/// The immutable module description a plugin exports (`mw_module`), built once
/// from a list of `Rule` types. Its C strings and arrays are allocated once and
/// never freed: modules are never unloaded. Every rule's `on_event` is one
/// C trampoline that dispatches by `rule_index` through `module_state`.
///
/// ```swift
/// enum OveruseModule {
///     static let export = ModuleExport.make(name: "overuse", version: "1.0.0", rules: [AlertFrequency.self])
///     static var exported: UnsafePointer<mw_module> { export.module }
/// }
///
/// @_cdecl("modalwatch_module")
/// public func modalwatchModule() -> UnsafePointer<mw_module> { OveruseModule.exported }
/// ```
// @unchecked: the pointee and everything it points to is written once in
// `make` and never again, so sharing it between threads is safe.
public struct ModuleExport: @unchecked Sendable {

    /// The description to return from `modalwatch_module`.
    public let module: UnsafePointer<mw_module>

    private init(module: UnsafePointer<mw_module>) { self.module = module }

    /// Builds the module description. Call it once, from a `static let`.
    public static func make(name: String, version: String, rules: [any Rule.Type]) -> ModuleExport {
        let table = UnsafeMutableBufferPointer<any Rule.Type>.allocate(capacity: rules.count)
        _ = table.initialize(from: rules)
        let state = UnsafeMutablePointer<DispatchTable>.allocate(capacity: 1)
        state.initialize(to: DispatchTable(rules: UnsafeBufferPointer(table)))

        let described = UnsafeMutableBufferPointer<mw_rule>.allocate(capacity: max(rules.count, 1))
        for (index, rule) in rules.enumerated() {
            (described.baseAddress! + index).initialize(to: describe(rule))
        }

        let module = UnsafeMutablePointer<mw_module>.allocate(capacity: 1)
        module.initialize(
            to: mw_module(
                abi_major: UInt32(MW_ABI_MAJOR),
                abi_minor: UInt32(MW_ABI_MINOR),
                name: cString(name),
                version: cString(version),
                rules: UnsafePointer(described.baseAddress),
                rule_count: UInt32(rules.count),
                reserved: 0,
                state: UnsafeMutableRawPointer(state)
            )
        )
        return ModuleExport(module: UnsafePointer(module))
    }

    /// The rule types, indexed like `mw_module.rules`; what `module_state` points to.
    private struct DispatchTable {
        let rules: UnsafeBufferPointer<any Rule.Type>
    }

    /// The one `on_event` of every rule: finds the rule by `rule_index` and judges.
    private static func dispatch(_ call: UnsafePointer<mw_call>?) {
        guard let call, let state = call.pointee.module_state else { return }
        let table = state.assumingMemoryBound(to: DispatchTable.self).pointee
        let index = Int(call.pointee.rule_index)
        guard index < table.rules.count else { return }
        table.rules[index].judge(RuleCall(call))
    }

    private static func describe(_ rule: any Rule.Type) -> mw_rule {
        let parameters = rule.parameters
        let params = UnsafeMutableBufferPointer<mw_param>.allocate(capacity: max(parameters.count, 1))
        for (index, parameter) in parameters.enumerated() {
            (params.baseAddress! + index).initialize(
                to: mw_param(
                    name: cString(parameter.name),
                    type: parameter.kind.rawValue,
                    reserved: 0,
                    default_value: parameter.defaultValue,
                    min_value: parameter.minValue,
                    max_value: parameter.maxValue,
                    meaning: cString(parameter.meaning)
                )
            )
        }
        let examples = rule.examples
        let described = UnsafeMutableBufferPointer<mw_example>.allocate(capacity: max(examples.count, 1))
        for (index, example) in examples.enumerated() {
            (described.baseAddress! + index).initialize(
                to: mw_example(
                    name: cString(example.name),
                    editions: example.editions.rawValue,
                    expected: example.expected,
                    events: cString(example.events)
                )
            )
        }
        return mw_rule(
            id: cString(rule.id),
            rev: rule.rev,
            severity: rule.severity.rawValue,
            editions: rule.editions.rawValue,
            event_mask: rule.events.reduce(0) { $0 | $1.bit },
            fire: rule.fire.rawValue,
            param_count: UInt32(parameters.count),
            params: UnsafePointer(params.baseAddress),
            summary: cString(rule.summary),
            guideline: cString(rule.guideline),
            source: cString(rule.source),
            examples: UnsafePointer(described.baseAddress),
            example_count: UInt32(examples.count),
            reserved: 0,
            on_event: { call in ModuleExport.dispatch(call) }
        )
    }

    /// A NUL-terminated copy that lives forever.
    private static func cString(_ string: String) -> UnsafePointer<CChar> {
        let utf8 = Array(string.utf8)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
        for (index, byte) in utf8.enumerated() { (buffer + index).initialize(to: CChar(bitPattern: byte)) }
        (buffer + utf8.count).initialize(to: 0)
        return UnsafePointer(buffer)
    }
}
