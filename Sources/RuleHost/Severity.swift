import ModalwatchABI

/// How bad a violation is: a rule's own, or a config's override.
public enum Severity: String, Sendable, CaseIterable, Comparable {
    case info
    case warning
    case error

    /// The severity an `mw_severity` value names, or nil for an unknown value.
    public init?(abiValue: UInt32) {
        switch abiValue {
        case UInt32(MW_SEVERITY_INFO.rawValue): self = .info
        case UInt32(MW_SEVERITY_WARNING.rawValue): self = .warning
        case UInt32(MW_SEVERITY_ERROR.rawValue): self = .error
        default: return nil
        }
    }

    private var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    /// `info < warning < error`.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
