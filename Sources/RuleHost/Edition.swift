import ModalwatchABI

/// A guideline edition: the rule profile an app is judged by (`spec/README.md`).
public enum Edition: String, Sendable, CaseIterable, Comparable {
    /// iPhone Human Interface Guidelines, 2009-11-20.
    case hig2009 = "2009"
    /// iOS 7 Human Interface Guidelines, Temporary Views.
    case ios7 = "ios7"
    /// Today's Human Interface Guidelines.
    case current = "current"

    /// The edition's bit in `mw_rule.editions` (`MW_EDITION_*`).
    public var bit: UInt32 {
        switch self {
        case .hig2009: return MW_EDITION_2009
        case .ios7: return MW_EDITION_IOS7
        case .current: return MW_EDITION_CURRENT
        }
    }

    /// The editions whose bits are set in `mask`, oldest first.
    public static func editions(in mask: UInt32) -> [Edition] {
        allCases.filter { mask & $0.bit != 0 }
    }

    /// Oldest first.
    public static func < (lhs: Edition, rhs: Edition) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
