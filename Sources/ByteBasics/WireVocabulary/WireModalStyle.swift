/// A modal view's presentation style: `modal.presented`'s `style` (`mw_modal_style`).
/// Raw values are the C enum's; `name` is the value's one spelling on the wire.
@frozen
public enum WireModalStyle: Int32, Sendable, CaseIterable, WireValue {
    case automatic = 0
    case fullScreen, pageSheet, formSheet, currentContext, overFullScreen, overCurrentContext, custom

    /// The value on the wire, as a static string (its bytes live forever).
    @inlinable
    public var name: StaticString {
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
