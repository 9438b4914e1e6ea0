/// `size_class` of `session.start` and `modal.presented`.
public enum SizeClass: String, Sendable, CaseIterable {
    case compact, regular
}
