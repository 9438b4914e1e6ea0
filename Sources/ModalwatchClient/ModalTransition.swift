/// `modal.presented`'s `transition`.
public enum ModalTransition: String, Sendable, CaseIterable {
    case custom
    case coverVertical = "cover_vertical"
    case flipHorizontal = "flip_horizontal"
    case crossDissolve = "cross_dissolve"
    case partialCurl = "partial_curl"
}
