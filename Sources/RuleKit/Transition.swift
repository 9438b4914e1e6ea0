/// A modal view's transition (`mw_transition`).
public enum Transition: Int32, Sendable, CaseIterable {
    /// `cover_vertical`
    case coverVertical = 0
    /// `flip_horizontal`
    case flipHorizontal = 1
    /// `cross_dissolve`
    case crossDissolve = 2
    /// `partial_curl`
    case partialCurl = 3
    /// `custom`
    case custom = 4

    /// The value's name on the wire, e.g. `flip_horizontal`.
    public var name: String {
        switch self {
        case .coverVertical: "cover_vertical"
        case .flipHorizontal: "flip_horizontal"
        case .crossDissolve: "cross_dissolve"
        case .partialCurl: "partial_curl"
        case .custom: "custom"
        }
    }
}
