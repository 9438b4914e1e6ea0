public import CatalogueVocabulary

/// Violations counted by severity.
public struct SeverityCounts: Sendable, Equatable {
    /// `info` violations.
    public var info = 0
    /// `warning` violations.
    public var warning = 0
    /// `error` violations.
    public var error = 0

    /// No violations.
    public init() {}

    /// All of them.
    public var total: Int { info + warning + error }

    /// The count for `severity`.
    public subscript(severity: Severity) -> Int {
        get {
            switch severity {
            case .info: info
            case .warning: warning
            case .error: error
            }
        }
        set {
            switch severity {
            case .info: info = newValue
            case .warning: warning = newValue
            case .error: error = newValue
            }
        }
    }

    /// Adds one of `severity`.
    public mutating func add(_ severity: Severity) { self[severity] += 1 }

    /// Adds another count.
    public mutating func add(_ other: SeverityCounts) {
        info += other.info
        warning += other.warning
        error += other.error
    }
}
