/// Why a ``ModalwatchClient`` could not start: one line that says what and what to do.
public struct ClientError: Error, Sendable, CustomStringConvertible {
    /// The message.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
