/// A button of a modal view's bar (`modal.presented`'s `buttons`).
public struct ModalButton: Sendable, Equatable {
    /// A modal button's `role`.
    public enum Role: String, Sendable, CaseIterable {
        case done, cancel, confirm, other
    }

    /// The button's title.
    public var title: String
    /// Its role, or nil to leave it out.
    public var role: Role?

    /// A button.
    public init(_ title: String, role: Role? = nil) {
        self.title = title
        self.role = role
    }
}
