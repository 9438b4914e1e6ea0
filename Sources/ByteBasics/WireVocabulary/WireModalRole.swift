/// A modal view's button's `role` (`mw_modal_role`).
/// Raw values are the C enum's; `name` is the value's one spelling on the wire.
@frozen
public enum WireModalRole: Int32, Sendable, CaseIterable, WireValue {
    case done = 0
    case cancel, confirm, other

    /// The value on the wire, as a static string (its bytes live forever).
    @inlinable
    public var name: StaticString {
        switch self {
        case .done: "done"
        case .cancel: "cancel"
        case .confirm: "confirm"
        case .other: "other"
        }
    }
}
