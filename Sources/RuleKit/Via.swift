/// How a presentation went away (`mw_via`).
public enum Via: Int32, Sendable, CaseIterable {
    /// `button`
    case button = 0
    /// `background`
    case background = 1
    /// `programmatic`
    case programmatic = 2
    /// `gesture`
    case gesture = 3

    /// The value's name on the wire, e.g. `background`.
    public var name: String {
        switch self {
        case .button: "button"
        case .background: "background"
        case .programmatic: "programmatic"
        case .gesture: "gesture"
        }
    }
}
