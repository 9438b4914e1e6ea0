import CZeroMQ

/// An error from the ZeroMQ wrapper.
///
/// Every failed libzmq call becomes one of these, keeping the `errno` that libzmq reported
/// (read with `zmq_errno()` right after the call), the name of the operation, and — through
/// ``reason`` — the `zmq_strerror` text for that errno.
///
/// Errors are told apart by ``code`` (a struct with static members, so new codes can be added
/// without breaking `switch`-free callers) and by ``errno``; the conveniences ``isAgain``,
/// ``isInterrupted`` and ``isTerminated`` cover the three errnos callers usually branch on.
public struct ZMQError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case callFailed
            case socketClosed
            case invalidArgument
            case protocolViolation
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// A libzmq call returned an error; ``ZMQError/errno`` says which.
        public static let callFailed = Code(.callFailed)
        /// The socket was used after ``ZMQSocket/close()`` (errno `ENOTSOCK`).
        public static let socketClosed = Code(.socketClosed)
        /// The wrapper refused an argument before calling libzmq (errno `EINVAL`).
        public static let invalidArgument = Code(.invalidArgument)
        /// libzmq broke one of its own guarantees, e.g. a multipart message stopped half way (errno `EPROTO`).
        public static let protocolViolation = Code(.protocolViolation)

        /// A short description of the code.
        public var description: String {
            switch self.base {
            case .callFailed: "libzmq call failed"
            case .socketClosed: "socket already closed"
            case .invalidArgument: "invalid argument"
            case .protocolViolation: "protocol violation"
            }
        }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The errno libzmq reported (or the one the wrapper chose for its own checks).
    public let errno: Int32
    /// The operation that failed, e.g. `zmq_bind(tcp://127.0.0.1:7450)`.
    public let operation: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what kind of failure this is.
    ///   - errno: the errno to keep.
    ///   - operation: the operation that failed.
    public init(code: Code, errno: Int32, operation: String) {
        self.code = code
        self.errno = errno
        self.operation = operation
    }

    /// The `zmq_strerror` text for ``errno``.
    public var reason: String {
        String(cString: zmq_strerror(self.errno))
    }

    /// `true` when the call would have blocked or its timeout expired (`EAGAIN`).
    public var isAgain: Bool { self.errno == EAGAIN }

    /// `true` when a signal interrupted the call (`EINTR`).
    public var isInterrupted: Bool { self.errno == EINTR }

    /// `true` when the socket's context was shut down or terminated (`ETERM`).
    public var isTerminated: Bool { self.errno == ETERM }

    /// `<operation>: <reason> (errno <n>)`.
    public var description: String {
        "\(self.operation): \(self.reason) (errno \(self.errno))"
    }
}
