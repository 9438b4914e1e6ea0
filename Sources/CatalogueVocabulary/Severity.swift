/// How serious a rule's violations are: a rule's own, or a config's override (`mw_severity`).
/// Raw values are the C enum's; `name` is the value's one spelling in configs, violations and replies.
public enum Severity: UInt32, CatalogueWord, Comparable {
    /// `info` (`MW_SEVERITY_INFO`).
    case info = 0
    /// `warning` (`MW_SEVERITY_WARNING`).
    case warning = 1
    /// `error` (`MW_SEVERITY_ERROR`).
    case error = 2

    /// The value's spelling: `info`, `warning` or `error`.
    public var name: String {
        switch self {
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    /// `info < warning < error`.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
}
