/// A request the daemon refuses: the one sentence of its `{"ok": false, "error": ...}` reply,
/// saying what was wrong and what to send instead.
public struct ControlRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence.
    public let message: String

    /// A refusal with this sentence.
    public init(_ message: String) {
        self.message = message
    }

    /// The sentence.
    public var description: String { message }
}
