/// The role of a modal view's button (`mw_modal_role`).
public enum ModalRole: Int32, Sendable, CaseIterable {
    /// `done`
    case done = 0
    /// `cancel`
    case cancel = 1
    /// `confirm`
    case confirm = 2
    /// `other`
    case other = 3

    /// The value's name on the wire, e.g. `cancel`.
    public var name: String {
        switch self {
        case .done: "done"
        case .cancel: "cancel"
        case .confirm: "confirm"
        case .other: "other"
        }
    }
}
