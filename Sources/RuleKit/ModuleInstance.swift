/// What every call's `module_state` points to in a RuleKit module: the rule types and
/// the hashes of each rule's parameter names (plain pointers, free to copy on every
/// call), and the module's own state.
struct ModuleInstance {
    /// The rule types, indexed like `mw_module.rules`.
    let rules: UnsafeBufferPointer<any Rule.Type>
    /// For each rule, the FNV-1a of its parameter names in declared order.
    let parameterHashes: UnsafeBufferPointer<UnsafeBufferPointer<UInt64>>
    /// The factory and the state it made.
    let owned: UnsafeMutablePointer<ModuleState>
}

/// A module's state factory (`ModuleExport.make(state:)`) and what it made in `on_init`
/// (nil in the static instance that a host older than 1.2 uses). Made once, never written again.
struct ModuleState {
    let makeState: (@Sendable (ModuleSettings) throws -> any Sendable)?
    let state: (any Sendable)?
}
