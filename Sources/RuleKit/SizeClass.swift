import ByteBasics

/// A horizontal size class (`mw_size_class`).
public enum SizeClass: Int32, Sendable, CaseIterable {
    /// `WireSizeClass.compact`
    case compact = 0
    /// `WireSizeClass.regular`
    case regular = 1

    /// The value's name on the wire, from ByteBasics' `WireSizeClass` (the one spelling of each value,
    /// numbered the same).
    public var name: String { WireSizeClass(rawValue: rawValue).unsafelyUnwrapped.string }
}
