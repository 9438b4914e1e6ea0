public import ByteBasics

/// `user.action`'s `control`: what the person acted on.
public enum UserControl: Sendable, CaseIterable, WireSpelled {
    /// A button in the content.
    case button
    /// A table or collection cell.
    case cell
    /// A gesture.
    case gesture
    /// A key on a keyboard.
    case key
    /// Anything else.
    case other
    /// A navigation-bar button.
    case barButton
    /// A toolbar button.
    case toolbarButton

    /// The wire value it spells (its raw value is that value's spelling).
    public var wire: WireControl {
        switch self {
        case .button: .button
        case .cell: .cell
        case .gesture: .gesture
        case .key: .key
        case .other: .other
        case .barButton: .barButton
        case .toolbarButton: .toolbarButton
        }
    }
}
