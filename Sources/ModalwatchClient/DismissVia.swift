public import ByteBasics

/// How a presentation went away (`via`).
public enum DismissVia: Sendable, CaseIterable, WireSpelled {
    /// One of its buttons.
    case button
    /// The app left the foreground while it was up.
    case background
    /// The app's code, with no action of the person.
    case programmatic
    /// A swipe or other gesture (modal views).
    case gesture

    /// The wire value it spells (its raw value is that value's spelling).
    public var wire: WireVia {
        switch self {
        case .button: .button
        case .background: .background
        case .programmatic: .programmatic
        case .gesture: .gesture
        }
    }
}
