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
///
/// A module with state of its own (ABI 1.2) gives a factory: the host calls it once,
/// with the module's settings, before any rule runs, and rules read the result with
/// `RuleCall.moduleState(as:)`. A factory that throws keeps the module from loading.
///
/// ```swift
/// static let export = ModuleExport.make(name: "house", version: "1.0.0", rules: [EarlyAlert.self]) { settings in
///     HouseSettings(exemptApps: settings["exempt_apps"] ?? "")
/// }
/// ```
// @unchecked: the pointee and everything it points to is written once in
// `make` and never again, so sharing it between threads is safe.
public struct ModuleExport: @unchecked Sendable {

    /// The description to return from `modalwatch_module`.
    public let module: UnsafePointer<mw_module>

    private init(module: UnsafePointer<mw_module>) { self.module = module }

    /// Builds the module description. Call it once, from a `static let`.
    ///
    /// - Parameters:
    ///   - name: the module's name, 1-64 of `a-z`, `0-9`, `-`, `_`.
    ///   - version: the module's own version (semantic versioning recommended).
    ///   - rules: its rules, in the order `modalwatch rules` lists them.
    ///   - state: makes the module's state from its settings when the host loads it
    ///     (ABI 1.2); nil for a module without state.
    public static func make(
        name: String,
        version: String,
        rules: [any Rule.Type],
        state: (@Sendable (ModuleSettings) throws -> any Sendable)? = nil
    ) -> ModuleExport {
        let table = UnsafeMutableBufferPointer<any Rule.Type>.allocate(capacity: rules.count)
        _ = table.initialize(from: rules)
        let hashes = UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt64>>.allocate(capacity: max(rules.count, 1))
        for (index, rule) in rules.enumerated() {
            let names = rule.parameters.map { Parameter<Int64>.hash($0.declaration.name) }
            let buffer = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(names.count, 1))
            _ = buffer.initialize(from: names)
            (hashes.baseAddress! + index).initialize(to: UnsafeBufferPointer(rebasing: buffer[0..<names.count]))
        }
        // The instance a host older than 1.2 passes back (it never calls on_init): no state.
        let owned = UnsafeMutablePointer<ModuleState>.allocate(capacity: 1)
        owned.initialize(to: ModuleState(makeState: state, state: nil))
        let instance = UnsafeMutablePointer<ModuleInstance>.allocate(capacity: 1)
        instance.initialize(
            to: ModuleInstance(
                rules: UnsafeBufferPointer(table),
                parameterHashes: UnsafeBufferPointer(rebasing: hashes[0..<rules.count]),
                owned: owned
            )
        )

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
                state: UnsafeMutableRawPointer(instance),
                on_init: { arguments, state in ModuleExport.initialize(arguments, state) },
                on_destroy: { state in ModuleExport.destroy(state) }
            )
        )
        return ModuleExport(module: UnsafePointer(module))
    }

    /// `on_init`: a fresh instance with the module's state made from its settings.
    private static func initialize(
        _ arguments: UnsafePointer<mw_init>?,
        _ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> Int32 {
        guard let arguments, let state, let module = arguments.pointee.module,
            let shared = module.pointee.state?.assumingMemoryBound(to: ModuleInstance.self).pointee
        else { return MW_INIT_FAILED }
        let settings = ModuleSettings(arguments)
        let makeState = shared.owned.pointee.makeState
        var made: (any Sendable)?
        if let makeState {
            do {
                made = try makeState(settings)
            } catch {
                settings.log(.error, "\(error)")
                return MW_INIT_FAILED
            }
        }
        let owned = UnsafeMutablePointer<ModuleState>.allocate(capacity: 1)
        owned.initialize(to: ModuleState(makeState: makeState, state: made))
        let instance = UnsafeMutablePointer<ModuleInstance>.allocate(capacity: 1)
        instance.initialize(
            to: ModuleInstance(rules: shared.rules, parameterHashes: shared.parameterHashes, owned: owned)
        )
        state.pointee = UnsafeMutableRawPointer(instance)
        return MW_INIT_OK
    }

    /// `on_destroy`: releases what `initialize` made (the rule tables are shared and stay).
    private static func destroy(_ state: UnsafeMutableRawPointer?) {
        guard let instance = state?.assumingMemoryBound(to: ModuleInstance.self) else { return }
        let owned = instance.pointee.owned
        owned.deinitialize(count: 1)
        owned.deallocate()
        instance.deinitialize(count: 1)
        instance.deallocate()
    }

    /// The one `on_event` of every rule: finds the rule by `rule_index` and judges.
    private static func dispatch(_ call: UnsafePointer<mw_call>?) {
        guard let call, let state = call.pointee.module_state else { return }
        let instance = state.assumingMemoryBound(to: ModuleInstance.self).pointee
        let index = Int(call.pointee.rule_index)
        guard index < instance.rules.count else { return }
        instance.rules[index].judge(
            RuleCall(call, parameterHashes: instance.parameterHashes[index], owned: instance.owned)
        )
    }

    private static func describe(_ rule: any Rule.Type) -> mw_rule {
        let parameters = rule.parameters.map(\.declaration)
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
            languages: rule.languages.rawValue,
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
