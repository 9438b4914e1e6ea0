/// What a stack entry is (`mw_presentation_kind`).
public enum PresentationKind: UInt32, Sendable, CaseIterable {
    /// `alert`
    case alert = 0
    /// `sheet`
    case sheet = 1
    /// `modal`
    case modal = 2
    /// `popover`
    case popover = 3

    /// The value's name on the wire, e.g. `sheet`.
    public var name: String {
        switch self {
        case .alert: "alert"
        case .sheet: "sheet"
        case .modal: "modal"
        case .popover: "popover"
        }
    }
}
