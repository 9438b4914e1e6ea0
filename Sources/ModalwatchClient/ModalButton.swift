public import ByteBasics

/// A button of a modal view's bar (`modal.presented`'s `buttons`).
public struct ModalButton: Sendable, Equatable {
    /// A modal button's `role`.
    public enum Role: Sendable, CaseIterable, WireSpelled {
        /// Finishes the task.
        case done
        /// Abandons it.
        case cancel
        /// Confirms it (Send, Save).
        case confirm
        /// Anything else.
        case other

        /// The wire value it spells (its raw value is that value's spelling).
        public var wire: WireModalRole {
            switch self {
            case .done: .done
            case .cancel: .cancel
            case .confirm: .confirm
            case .other: .other
            }
        }
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
