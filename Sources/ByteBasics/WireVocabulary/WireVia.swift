/// How a presentation went away: a dismissal's `via` (`mw_via`).
/// Raw values are the C enum's; `name` is the value's one spelling on the wire.
@frozen
public enum WireVia: Int32, Sendable, CaseIterable, WireValue {
    case button = 0
    case background, programmatic, gesture

    /// The value on the wire, as a static string (its bytes live forever).
    @inlinable
    public var name: StaticString {
        switch self {
        case .button: "button"
        case .background: "background"
        case .programmatic: "programmatic"
        case .gesture: "gesture"
        }
    }
}
