/// A text field of an alert (`alert.presented`'s `text_fields`).
public struct TextField: Sendable, Equatable {
    /// Whether it hides what is typed (a password field).
    public var secure: Bool

    /// A text field.
    public init(secure: Bool = false) {
        self.secure = secure
    }
}
