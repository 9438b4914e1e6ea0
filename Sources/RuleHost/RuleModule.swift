/// A rule module that loaded and passed every check.
public struct RuleModule: Sendable {
    /// The module's name, e.g. `overuse`.
    public var name: String
    /// The module's own version string.
    public var version: String
    /// The file it came from.
    public var path: String
    /// The ABI version it was built against.
    public var abiMajor: UInt32
    /// The ABI minor version it was built against.
    public var abiMinor: UInt32
    /// Its rules, in declared order.
    public var rules: [RuleDescriptor]
    /// Its state, log and error count at run time (ABI 1.2; every module has one).
    public var runtime: ModuleRuntime
    /// The file as it was loaded (its identity, and the private copy `dlopen` opened);
    /// nil for a module loaded without a copy.
    public var file: ModuleFile?
    /// Its lifecycle functions, read from the description.
    var hooks = ModuleHooks()
}
