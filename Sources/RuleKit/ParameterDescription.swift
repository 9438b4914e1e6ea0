/// A parameter as the module describes it to the host (`mw_param`): name, kind,
/// default, bounds and meaning, values as the host passes them (ms for durations).
public struct ParameterDescription: Sendable, Equatable {
    /// The name configs use, e.g. `limit`.
    public var name: String
    /// Whole number or duration.
    public var kind: ParameterKind
    /// The default (ms for durations).
    public var defaultValue: Int64
    /// The smallest value a config may set.
    public var minValue: Int64
    /// The largest value a config may set.
    public var maxValue: Int64
    /// What it means, one line.
    public var meaning: String

    /// Describes a parameter.
    public init(
        name: String,
        kind: ParameterKind,
        defaultValue: Int64,
        minValue: Int64,
        maxValue: Int64,
        meaning: String
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.minValue = minValue
        self.maxValue = maxValue
        self.meaning = meaning
    }
}
