/// The style of an alert or action-sheet button (`mw_button_style`).
public enum ButtonStyle: Int32, Sendable, CaseIterable {
    /// `default`
    case `default` = 0
    /// `cancel`
    case cancel = 1
    /// `destructive`
    case destructive = 2

    /// The value's name on the wire, e.g. `cancel`.
    public var name: String {
        switch self {
        case .default: "default"
        case .cancel: "cancel"
        case .destructive: "destructive"
        }
    }
}
