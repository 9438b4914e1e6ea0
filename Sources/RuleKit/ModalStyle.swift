import ByteBasics

/// A modal view's presentation style (`mw_modal_style`).
public enum ModalStyle: Int32, Sendable, CaseIterable {
    /// `WireModalStyle.automatic`
    case automatic = 0
    /// `WireModalStyle.fullScreen`
    case fullScreen = 1
    /// `WireModalStyle.pageSheet`
    case pageSheet = 2
    /// `WireModalStyle.formSheet`
    case formSheet = 3
    /// `WireModalStyle.currentContext`
    case currentContext = 4
    /// `WireModalStyle.overFullScreen`
    case overFullScreen = 5
    /// `WireModalStyle.overCurrentContext`
    case overCurrentContext = 6
    /// `WireModalStyle.custom`
    case custom = 7

    /// The value's name on the wire, from ByteBasics' `WireModalStyle` (the one spelling of each value,
    /// numbered the same).
    public var name: String { WireModalStyle(rawValue: rawValue).unsafelyUnwrapped.string }
}
