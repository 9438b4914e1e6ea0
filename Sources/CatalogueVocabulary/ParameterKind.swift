/// What values a rule parameter takes (`mw_param_type`).
/// Raw values are the C enum's; `name` is the value's one spelling in replies.
public enum ParameterKind: UInt32, CatalogueWord {
    /// A whole number (`MW_PARAM_INT`), spelled `integer`.
    case int = 0
    /// A duration in ms (`MW_PARAM_DURATION_MS`), spelled `duration`; configs write `600s`, `15m`, `1000ms`.
    case durationMs = 1

    /// The value's spelling: `integer` or `duration`.
    public var name: String {
        switch self {
        case .int: "integer"
        case .durationMs: "duration"
        }
    }
}
