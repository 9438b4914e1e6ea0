/// `modal.presented`'s `style`.
public enum ModalStyle: String, Sendable, CaseIterable {
    case automatic, custom
    case fullScreen = "full_screen"
    case pageSheet = "page_sheet"
    case formSheet = "form_sheet"
    case currentContext = "current_context"
    case overFullScreen = "over_full_screen"
    case overCurrentContext = "over_current_context"
}
