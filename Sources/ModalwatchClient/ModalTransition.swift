public import ByteBasics

/// `modal.presented`'s `transition` (UIKit's modal transition styles).
public enum ModalTransition: Sendable, CaseIterable, WireSpelled {
    /// A custom transition.
    case custom
    /// Slides up from the bottom (the default).
    case coverVertical
    /// Flips horizontally.
    case flipHorizontal
    /// Fades.
    case crossDissolve
    /// Curls the page up.
    case partialCurl

    /// The wire value it spells (its raw value is that value's spelling).
    public var wire: WireTransition {
        switch self {
        case .custom: .custom
        case .coverVertical: .coverVertical
        case .flipHorizontal: .flipHorizontal
        case .crossDissolve: .crossDissolve
        case .partialCurl: .partialCurl
        }
    }
}
