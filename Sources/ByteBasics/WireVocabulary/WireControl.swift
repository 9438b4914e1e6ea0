/// What a person acted on: `user.action`'s `control` (`mw_control`).
/// Raw values are the C enum's; `name` is the value's one spelling on the wire.
@frozen
public enum WireControl: Int32, Sendable, CaseIterable, WireValue {
    case button = 0
    case barButton, toolbarButton, cell, gesture, key, other

    /// The value on the wire, as a static string (its bytes live forever).
    @inlinable
    public var name: StaticString {
        switch self {
        case .button: "button"
        case .barButton: "bar_button"
        case .toolbarButton: "toolbar_button"
        case .cell: "cell"
        case .gesture: "gesture"
        case .key: "key"
        case .other: "other"
        }
    }
}
