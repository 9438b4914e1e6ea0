import ByteBasics

/// A modal view's transition (`mw_transition`).
public enum Transition: Int32, Sendable, CaseIterable {
    /// `WireTransition.coverVertical`
    case coverVertical = 0
    /// `WireTransition.flipHorizontal`
    case flipHorizontal = 1
    /// `WireTransition.crossDissolve`
    case crossDissolve = 2
    /// `WireTransition.partialCurl`
    case partialCurl = 3
    /// `WireTransition.custom`
    case custom = 4

    /// The value's name on the wire, from ByteBasics' `WireTransition` (the one spelling of each value,
    /// numbered the same).
    public var name: String { WireTransition(rawValue: rawValue).unsafelyUnwrapped.string }
}
