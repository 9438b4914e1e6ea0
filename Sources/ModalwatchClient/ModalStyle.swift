/// `modal.presented`'s `style` (UIKit's modal presentation styles).
public enum ModalStyle: String, Sendable, CaseIterable {
    /// The system's choice.
    case automatic
    /// A custom presentation.
    case custom
    /// Covers the whole screen.
    case fullScreen = "full_screen"
    /// A page sheet.
    case pageSheet = "page_sheet"
    /// A form sheet.
    case formSheet = "form_sheet"
    /// Over the presenting context only.
    case currentContext = "current_context"
    /// The whole screen, the content below still shown.
    case overFullScreen = "over_full_screen"
    /// The context only, the content below still shown.
    case overCurrentContext = "over_current_context"
}
