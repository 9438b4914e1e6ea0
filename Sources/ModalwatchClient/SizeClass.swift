/// `size_class` of `session.start` and `modal.presented`.
public enum SizeClass: String, Sendable, CaseIterable {
    /// Compact width (the phone's default).
    case compact
    /// Regular width (every other device's default).
    case regular
}
