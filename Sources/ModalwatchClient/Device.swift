public import ByteBasics

/// `session.start`'s `device`.
public enum Device: Sendable, CaseIterable, WireSpelled {
    /// An iPhone (the default).
    case phone
    /// An iPad.
    case pad
    /// A Mac.
    case mac
    /// An Apple TV.
    case tv
    /// Apple Vision Pro.
    case vision

    /// The wire value it spells (its raw value is that value's spelling).
    public var wire: WireDevice {
        switch self {
        case .phone: .phone
        case .pad: .pad
        case .mac: .mac
        case .tv: .tv
        case .vision: .vision
        }
    }
}
