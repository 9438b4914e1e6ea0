public import RuleHost

/// A rule as it runs for one app: its parameters and severity in force.
// @unchecked: `parameters` points into the storage of the `RuleProfile` that made this value,
// written only in that profile's `init`; it is read-only from then on, on any thread.
public struct ActiveRule: @unchecked Sendable {
    /// The rule as its module declared it.
    public let descriptor: RuleDescriptor
    /// A hash of the rule id, mixed into every key of the rule's state, so state
    /// (and a snapshot of it) stays with its rule whatever order modules load in.
    public let seed: UInt64
    /// The severity in force (the rule's own, or a config's).
    public let severity: Severity
    /// Parameter values in force, in declared order (stable storage owned by the profile).
    public let parameters: UnsafePointer<Int64>
    /// How many parameters.
    public let parameterCount: Int
    /// The violation JSON's fixed parts for this rule, severity and edition.
    let template: ViolationTemplate

    /// The value in force of the parameter named `name`.
    public func value(of name: String) -> Int64? {
        guard let index = descriptor.parameters.firstIndex(where: { $0.name == name }) else { return nil }
        return parameters[index]
    }
}
