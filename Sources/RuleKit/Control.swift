/// The kind of control a person acted on (`mw_control`).
public enum Control: Int32, Sendable, CaseIterable {
    /// `button`
    case button = 0
    /// `bar_button`
    case barButton = 1
    /// `toolbar_button`
    case toolbarButton = 2
    /// `cell`
    case cell = 3
    /// `gesture`
    case gesture = 4
    /// `key`
    case key = 5
    /// `other`
    case other = 6

    /// The value's name on the wire, e.g. `bar_button`.
    public var name: String {
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
