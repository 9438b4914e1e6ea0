import ByteBasics

/// The style of an alert or action-sheet button (`mw_button_style`).
public enum ButtonStyle: Int32, Sendable, CaseIterable {
    /// `WireButtonStyle.default`
    case `default` = 0
    /// `WireButtonStyle.cancel`
    case cancel = 1
    /// `WireButtonStyle.destructive`
    case destructive = 2

    /// The value's name on the wire, from ByteBasics' `WireButtonStyle` (the one spelling of each value,
    /// numbered the same).
    public var name: String { WireButtonStyle(rawValue: rawValue).unsafelyUnwrapped.string }
}
