import Posix
import ZeroMQ

/// An error that stops the daemon from starting or running: a code to branch on, one line for the
/// operator that says what to do, and the error it comes from (with its `errno`), if any.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    /// Kinds of failure; the set can grow.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// An endpoint could not be bound or connected.
        public static let endpoint = Code("endpoint")
        /// A system call failed.
        public static let systemCall = Code("systemCall")
        /// The configuration is unusable.
        public static let configuration = Code("configuration")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure.
    public let code: Code
    /// One line for the operator.
    public let message: String
    /// The error this one comes from (a `PosixError`, a `ZMQError`, a history store or configuration
    /// error), kept as it was thrown.
    public let underlying: (any Error)?
    /// The start-up step that failed (`Daemon`'s steps, e.g. `state directory`), if it failed at start.
    public private(set) var step: String?

    /// Creates an error; `underlying` is the error caught, if any.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The same error, naming the start-up step it stopped (the innermost step is kept).
    func during(_ step: String) -> DaemonError {
        var error = self
        if error.step == nil { error.step = step }
        return error
    }

    /// The `errno` of the system or libzmq call that failed, if the underlying error has one.
    public var errno: Int32? {
        switch underlying {
        case let error as PosixError: error.errno
        case let error as ZMQError: error.errno
        case let error as DaemonError: error.errno
        default: nil
        }
    }

    /// The message.
    public var description: String { message }
}
