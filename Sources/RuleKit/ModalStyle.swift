/// A modal view's presentation style (`mw_modal_style`).
public enum ModalStyle: Int32, Sendable, CaseIterable {
    /// `automatic`
    case automatic = 0
    /// `full_screen`
    case fullScreen = 1
    /// `page_sheet`
    case pageSheet = 2
    /// `form_sheet`
    case formSheet = 3
    /// `current_context`
    case currentContext = 4
    /// `over_full_screen`
    case overFullScreen = 5
    /// `over_current_context`
    case overCurrentContext = 6
    /// `custom`
    case custom = 7

    /// The value's name on the wire, e.g. `full_screen`.
    public var name: String {
        switch self {
        case .automatic: "automatic"
        case .fullScreen: "full_screen"
        case .pageSheet: "page_sheet"
        case .formSheet: "form_sheet"
        case .currentContext: "current_context"
        case .overFullScreen: "over_full_screen"
        case .overCurrentContext: "over_current_context"
        case .custom: "custom"
        }
    }
}
