/// The kind of device a session runs on (`mw_device`).
public enum Device: Int32, Sendable, CaseIterable {
    /// `phone`
    case phone = 0
    /// `pad`
    case pad = 1
    /// `mac`
    case mac = 2
    /// `tv`
    case tv = 3
    /// `vision`
    case vision = 4

    /// The value's name on the wire, e.g. `pad`.
    public var name: String {
        switch self {
        case .phone: "phone"
        case .pad: "pad"
        case .mac: "mac"
        case .tv: "tv"
        case .vision: "vision"
        }
    }
}
