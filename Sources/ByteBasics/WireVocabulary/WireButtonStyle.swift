/// An alert or sheet button's `style` (`mw_button_style`).
/// Raw values are the C enum's; `name` is the value's one spelling on the wire.
@frozen
public enum WireButtonStyle: Int32, Sendable, CaseIterable, WireValue {
    case `default` = 0
    case cancel, destructive

    /// The value on the wire, as a static string (its bytes live forever).
    @inlinable
    public var name: StaticString {
        switch self {
        case .default: "default"
        case .cancel: "cancel"
        case .destructive: "destructive"
        }
    }
}
