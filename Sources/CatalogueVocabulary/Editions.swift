/// A set of guideline editions (`MW_EDITION_*` bits): where a rule or an example applies.
public struct Editions: OptionSet, Sendable, Hashable {
    /// The `MW_EDITION_*` bits.
    public let rawValue: UInt32

    /// Makes a set from `MW_EDITION_*` bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The set of one edition.
    public init(_ edition: Edition) { self.init(rawValue: edition.rawValue) }

    /// `2009`: iPhone Human Interface Guidelines, 2009-11-20.
    public static let edition2009 = Editions(.edition2009)
    /// `ios7`: iOS 7 Human Interface Guidelines, Temporary Views.
    public static let ios7 = Editions(.ios7)
    /// `current`: today's Human Interface Guidelines.
    public static let current = Editions(.current)
    /// Every edition.
    public static let all = Editions(rawValue: Edition.allCases.reduce(0) { $0 | $1.rawValue })

    /// The editions in this set, oldest first.
    public var members: [Edition] { Edition.allCases.filter { rawValue & $0.rawValue != 0 } }

    /// The names of the editions in this set, oldest first (`2009`, `ios7`, `current`).
    public var names: [String] { members.map(\.name) }
}
