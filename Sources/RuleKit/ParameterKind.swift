/// What values a parameter takes (`mw_param_type`).
public enum ParameterKind: UInt32, Sendable {
    /// A whole number (`MW_PARAM_INT`).
    case int = 0
    /// A duration in ms (`MW_PARAM_DURATION_MS`); configs write `600s`, `15m`, `1000ms`.
    case durationMs = 1
}
