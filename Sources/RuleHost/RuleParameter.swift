/// A parameter a rule declares: its name, kind, default and bounds.
public struct RuleParameter: Sendable, Equatable {
    /// The name config uses, e.g. `limit`.
    public var name: String
    /// Integer or duration.
    public var kind: ParameterKind
    /// The default value (milliseconds for durations).
    public var defaultValue: Int64
    /// The smallest value config may set.
    public var minimum: Int64
    /// The largest value config may set.
    public var maximum: Int64
    /// One line on what it means.
    public var meaning: String

    /// Creates a parameter description.
    public init(name: String, kind: ParameterKind, defaultValue: Int64, minimum: Int64, maximum: Int64, meaning: String)
    {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.meaning = meaning
    }

    /// A value formatted for people: durations with a unit ("600 s", "1000 ms").
    public func format(_ value: Int64) -> String {
        switch kind {
        case .int:
            return String(value)
        case .durationMs:
            if value % 1000 == 0 && value != 0 { return "\(value / 1000) s" }
            return "\(value) ms"
        }
    }
}
