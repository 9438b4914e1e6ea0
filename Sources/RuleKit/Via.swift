import ByteBasics

/// How a presentation went away (`mw_via`).
public enum Via: Int32, Sendable, CaseIterable {
    /// `WireVia.button`
    case button = 0
    /// `WireVia.background`
    case background = 1
    /// `WireVia.programmatic`
    case programmatic = 2
    /// `WireVia.gesture`
    case gesture = 3

    /// The value's name on the wire, from ByteBasics' `WireVia` (the one spelling of each value,
    /// numbered the same).
    public var name: String { WireVia(rawValue: rawValue).unsafelyUnwrapped.string }
}
