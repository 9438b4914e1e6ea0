import ByteBasics

/// The kind of control a person acted on (`mw_control`).
public enum Control: Int32, Sendable, CaseIterable {
    /// `WireControl.button`
    case button = 0
    /// `WireControl.barButton`
    case barButton = 1
    /// `WireControl.toolbarButton`
    case toolbarButton = 2
    /// `WireControl.cell`
    case cell = 3
    /// `WireControl.gesture`
    case gesture = 4
    /// `WireControl.key`
    case key = 5
    /// `WireControl.other`
    case other = 6

    /// The value's name on the wire, from ByteBasics' `WireControl` (the one spelling of each value,
    /// numbered the same).
    public var name: String { WireControl(rawValue: rawValue).unsafelyUnwrapped.string }
}
