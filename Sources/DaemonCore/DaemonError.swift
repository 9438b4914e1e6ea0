/// An error that stops the daemon from starting or running; the message says what to do.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    /// Kinds of failure; the set can grow.
    public struct Code: Hashable, Sendable {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// An endpoint could not be bound or connected.
        public static let endpoint = Code("endpoint")
        /// A system call failed.
        public static let systemCall = Code("systemCall")
        /// The configuration is unusable.
        public static let configuration = Code("configuration")
    }

    /// What kind of failure.
    public let code: Code
    /// One line for the operator.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
