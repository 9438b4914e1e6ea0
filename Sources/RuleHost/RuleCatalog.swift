/// Every rule module that loaded, and a line for each that did not.
public struct RuleCatalog: Sendable {
    /// Modules that loaded, in load order (directories in order given, files by name).
    public var modules: [RuleModule]
    /// Modules that were refused, each with its reason.
    public var failures: [ModuleLoadError]

    /// Creates a catalog.
    public init(modules: [RuleModule] = [], failures: [ModuleLoadError] = []) {
        self.modules = modules
        self.failures = failures
    }

    /// Every rule of every module, in load order.
    public var rules: [RuleDescriptor] { modules.flatMap(\.rules) }

    /// The rule with this id, if a module declares it.
    public func rule(id: String) -> RuleDescriptor? {
        for module in modules {
            if let rule = module.rules.first(where: { $0.id == id }) { return rule }
        }
        return nil
    }
}
