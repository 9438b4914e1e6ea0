public import ByteBasics

/// `size_class` of `session.start` and `modal.presented`.
public enum SizeClass: Sendable, CaseIterable, WireSpelled {
    /// Compact width (the phone's default).
    case compact
    /// Regular width (every other device's default).
    case regular

    /// The wire value it spells (its raw value is that value's spelling).
    public var wire: WireSizeClass {
        switch self {
        case .compact: .compact
        case .regular: .regular
        }
    }
}
