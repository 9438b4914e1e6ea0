/// A device a session runs on: `session.start`'s `device` (`mw_device`).
/// Raw values are the C enum's; `name` is the value's one spelling on the wire.
@frozen
public enum WireDevice: Int32, Sendable, CaseIterable, WireValue {
    case phone = 0
    case pad, mac, tv, vision

    /// The value on the wire, as a static string (its bytes live forever).
    @inlinable
    public var name: StaticString {
        switch self {
        case .phone: "phone"
        case .pad: "pad"
        case .mac: "mac"
        case .tv: "tv"
        case .vision: "vision"
        }
    }
}
