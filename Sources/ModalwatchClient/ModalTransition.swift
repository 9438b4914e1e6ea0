/// `modal.presented`'s `transition` (UIKit's modal transition styles).
public enum ModalTransition: String, Sendable, CaseIterable {
    /// A custom transition.
    case custom
    /// Slides up from the bottom (the default).
    case coverVertical = "cover_vertical"
    /// Flips horizontally.
    case flipHorizontal = "flip_horizontal"
    /// Fades.
    case crossDissolve = "cross_dissolve"
    /// Curls the page up.
    case partialCurl = "partial_curl"
}
