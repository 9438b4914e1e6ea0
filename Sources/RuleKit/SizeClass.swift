/// A horizontal size class (`mw_size_class`).
public enum SizeClass: Int32, Sendable, CaseIterable {
    /// `compact`
    case compact = 0
    /// `regular`
    case regular = 1

    /// The value's name on the wire, e.g. `regular`.
    public var name: String {
        switch self {
        case .compact: "compact"
        case .regular: "regular"
        }
    }
}
