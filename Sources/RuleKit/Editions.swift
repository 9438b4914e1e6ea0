/// A set of guideline editions (`MW_EDITION_*` bits).
public struct Editions: OptionSet, Sendable, Hashable {
    /// The `MW_EDITION_*` bits.
    public let rawValue: UInt32

    /// Makes a set from `MW_EDITION_*` bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `2009`: iPhone Human Interface Guidelines, 2009-11-20.
    public static let edition2009 = Editions(rawValue: 1)
    /// `ios7`: iOS 7 Human Interface Guidelines, Temporary Views.
    public static let ios7 = Editions(rawValue: 2)
    /// `current`: today's Human Interface Guidelines.
    public static let current = Editions(rawValue: 4)
    /// Every edition.
    public static let all: Editions = [.edition2009, .ios7, .current]

    /// The edition names in this set, in catalogue order (`2009`, `ios7`, `current`).
    public var names: [String] {
        var result: [String] = []
        if contains(.edition2009) { result.append("2009") }
        if contains(.ios7) { result.append("ios7") }
        if contains(.current) { result.append("current") }
        return result
    }
}
