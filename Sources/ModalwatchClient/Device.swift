/// `session.start`'s `device`.
public enum Device: String, Sendable, CaseIterable {
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
}
