/// A guideline edition: the rule profile an app is judged by (`spec/README.md`).
/// Raw values are its `MW_EDITION_*` bit; `name` is its one spelling in configs, violations and replies.
public enum Edition: UInt32, CatalogueWord, Comparable {
    /// `2009`: iPhone Human Interface Guidelines, 2009-11-20 (`MW_EDITION_2009`).
    case edition2009 = 1
    /// `ios7`: iOS 7 Human Interface Guidelines, Temporary Views (`MW_EDITION_IOS7`).
    case ios7 = 2
    /// `current`: today's Human Interface Guidelines (`MW_EDITION_CURRENT`).
    case current = 4

    /// The edition's spelling: `2009`, `ios7` or `current`.
    public var name: String {
        switch self {
        case .edition2009: "2009"
        case .ios7: "ios7"
        case .current: "current"
        }
    }

    /// Oldest first.
    public static func < (lhs: Edition, rhs: Edition) -> Bool { lhs.rawValue < rhs.rawValue }
}
