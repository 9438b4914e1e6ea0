public import ByteBasics

/// `modal.presented`'s `style` (UIKit's modal presentation styles).
public enum ModalStyle: Sendable, CaseIterable, WireSpelled {
    /// The system's choice.
    case automatic
    /// A custom presentation.
    case custom
    /// Covers the whole screen.
    case fullScreen
    /// A page sheet.
    case pageSheet
    /// A form sheet.
    case formSheet
    /// Over the presenting context only.
    case currentContext
    /// The whole screen, the content below still shown.
    case overFullScreen
    /// The context only, the content below still shown.
    case overCurrentContext

    /// The wire value it spells (its raw value is that value's spelling).
    public var wire: WireModalStyle {
        switch self {
        case .automatic: .automatic
        case .custom: .custom
        case .fullScreen: .fullScreen
        case .pageSheet: .pageSheet
        case .formSheet: .formSheet
        case .currentContext: .currentContext
        case .overFullScreen: .overFullScreen
        case .overCurrentContext: .overCurrentContext
        }
    }
}
