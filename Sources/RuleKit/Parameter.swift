/// A rule parameter (`mw_param`): its name, kind, default, bounds and meaning.
/// Values reach the rule through `RuleCall.param(_:)` in declared order.
public struct Parameter: Sendable {
    /// Whole number or duration.
    public enum Kind: UInt32, Sendable {
        /// A whole number (`MW_PARAM_INT`).
        case int = 0
        /// A duration in ms (`MW_PARAM_DURATION_MS`); configs write `600s`, `15m`, `1000ms`.
        case durationMs = 1
    }

    /// The name configs use, e.g. `limit`.
    public var name: String
    /// Whole number or duration.
    public var kind: Kind
    /// The default (ms for durations).
    public var defaultValue: Int64
    /// The smallest value a config may set.
    public var minValue: Int64
    /// The largest value a config may set.
    public var maxValue: Int64
    /// What it means, one line.
    public var meaning: String

    /// Declares a parameter.
    public init(name: String, kind: Kind, defaultValue: Int64, minValue: Int64, maxValue: Int64, meaning: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.minValue = minValue
        self.maxValue = maxValue
        self.meaning = meaning
    }

    /// A whole-number parameter.
    public static func int(
        _ name: String, default value: Int64, min: Int64 = 0, max: Int64 = 1_000_000, _ meaning: String
    ) -> Parameter {
        Parameter(name: name, kind: .int, defaultValue: value, minValue: min, maxValue: max, meaning: meaning)
    }

    /// A duration parameter, in ms.
    public static func duration(
        _ name: String, defaultMs value: Int64, minMs: Int64 = 1, maxMs: Int64 = 86_400_000, _ meaning: String
    ) -> Parameter {
        Parameter(name: name, kind: .durationMs, defaultValue: value, minValue: minMs, maxValue: maxMs, meaning: meaning)
    }
}
