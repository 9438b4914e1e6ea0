/// A modal view's transition: `modal.presented`'s `transition` (`mw_transition`).
/// Raw values are the C enum's; `name` is the value's one spelling on the wire.
@frozen
public enum WireTransition: Int32, Sendable, CaseIterable, WireValue {
    case coverVertical = 0
    case flipHorizontal, crossDissolve, partialCurl, custom

    /// The value on the wire, as a static string (its bytes live forever).
    @inlinable
    public var name: StaticString {
        switch self {
        case .coverVertical: "cover_vertical"
        case .flipHorizontal: "flip_horizontal"
        case .crossDissolve: "cross_dissolve"
        case .partialCurl: "partial_curl"
        case .custom: "custom"
        }
    }
}
