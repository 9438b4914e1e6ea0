/// How serious a rule's violations are (`mw_severity`).
public enum Severity: UInt32, Sendable, CaseIterable {
    /// `info`
    case info = 0
    /// `warning`
    case warning = 1
    /// `error`
    case error = 2

    /// The name on the wire: `info`, `warning` or `error`.
    public var name: String {
        switch self {
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}
