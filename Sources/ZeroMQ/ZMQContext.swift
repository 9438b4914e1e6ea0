import CZeroMQ
import Synchronization

/// A ZeroMQ context: the owner of libzmq's I/O threads and of every socket made from it.
///
/// A context is thread-safe (libzmq guarantees it), so this class is `Sendable`: share one per
/// process. Its lifecycle:
///
/// 1. ``shutdown()`` (optional, from any thread): every blocking call on every socket of the
///    context returns `ETERM` at once, and no new socket can be made. It does not wait.
/// 2. Each thread closes its own sockets (``ZMQSocket/close()``, which sets `ZMQ_LINGER` first).
/// 3. ``terminate()``: waits until every socket is closed, then frees the context. It also does
///    what ``shutdown()`` does, so step 1 is only needed to wake threads before you wait.
///
/// `deinit` terminates. A socket keeps its context alive, so a context is only deinitialised
/// after all its sockets are.
public final class ZMQContext: Sendable {
    /// Where the context is in its life.
    private enum Phase {
        case live
        case shutDown
        case terminating
        case terminated
    }

    /// The libzmq context; valid until `zmq_ctx_term` returns.
    private let handle: Handle
    /// Guards the phase so that no call reaches a freed context.
    private let phase: Mutex<Phase>

    /// Creates a context.
    ///
    /// - Parameter ioThreads: how many I/O threads libzmq runs for the context (`ZMQ_IO_THREADS`).
    ///   One is enough for well over a million messages a second; `inproc://` needs none.
    /// - Throws: ``ZMQError`` when libzmq cannot create the context or refuses the option.
    public init(ioThreads: Int = 1) throws(ZMQError) {
        guard ioThreads >= 0, ioThreads <= Int(Int32.max) else {
            throw ZMQError(
                code: .invalidArgument,
                errno: EINVAL,
                operation: "zmq_ctx_set(ZMQ_IO_THREADS, \(ioThreads))"
            )
        }
        guard let raw = zmq_ctx_new() else {
            throw LibZMQ.lastError("zmq_ctx_new")
        }
        let result = zmq_ctx_set(raw, ZMQ_IO_THREADS, Int32(ioThreads))
        if result != 0 {
            let error = LibZMQ.lastError("zmq_ctx_set(ZMQ_IO_THREADS, \(ioThreads))")
            zmq_ctx_term(raw)
            throw error
        }
        self.handle = Handle(raw: raw)
        self.phase = Mutex(.live)
    }

    deinit {
        self.terminate()
    }

    /// `true` once ``shutdown()`` or ``terminate()`` was called.
    public var isShutDown: Bool {
        self.phase.withLock { $0 != .live }
    }

    /// Shuts the context down (`zmq_ctx_shutdown`): every blocking call on its sockets, in every
    /// thread, returns at once with `ETERM` (``ZMQError/isTerminated``), and later calls on those
    /// sockets fail the same way until they are closed. Making a new socket fails too.
    ///
    /// Does not wait for anything. Calling it again, or after ``terminate()``, does nothing.
    public func shutdown() {
        self.phase.withLock { phase in
            guard phase == .live else { return }
            let result = zmq_ctx_shutdown(self.handle.raw)
            precondition(result == 0, "zmq_ctx_shutdown failed: errno \(zmq_errno())")
            phase = .shutDown
        }
    }

    /// Terminates the context (`zmq_ctx_term`, retried on `EINTR`): shuts it down if it is not
    /// already, waits until every socket made from it is closed, then frees it.
    ///
    /// Blocks while any socket is open: close every socket (or make its owner thread close it,
    /// woken by the `ETERM` this causes) before, or while, calling this. Idempotent: a second call
    /// returns at once, also while another thread is still inside the first.
    public func terminate() {
        let proceed = self.phase.withLock { phase in
            switch phase {
            case .live, .shutDown:
                phase = .terminating
                return true
            case .terminating, .terminated:
                return false
            }
        }
        guard proceed else { return }
        while zmq_ctx_term(self.handle.raw) != 0 {
            let code = zmq_errno()
            precondition(code == EINTR, "zmq_ctx_term failed: errno \(code)")
        }
        self.phase.withLock { $0 = .terminated }
    }

    /// Makes a libzmq socket, unless the context is shut down.
    func makeSocket(type: Int32, operation: @autoclosure () -> String) throws(ZMQError) -> UnsafeMutableRawPointer {
        // Locked so that terminate() cannot free the context under zmq_socket.
        let result: Result<Handle, ZMQError> = self.phase.withLock { phase in
            guard phase == .live else {
                return .failure(ZMQError(code: .callFailed, errno: ETERM, operation: operation()))
            }
            guard let raw = zmq_socket(self.handle.raw, type) else {
                return .failure(LibZMQ.lastError(operation()))
            }
            return .success(Handle(raw: raw))
        }
        return try result.get().raw
    }
}

extension ZMQContext {
    /// A libzmq handle that may cross threads, kept as its address: a context handle is
    /// thread-safe by libzmq's contract, and a socket handle crosses only from the locked
    /// creation back to its single owner.
    struct Handle: Sendable {
        private let address: UInt

        init(raw: UnsafeMutableRawPointer) {
            address = UInt(bitPattern: raw)
        }

        /// The raw `void *`.
        var raw: UnsafeMutableRawPointer {
            UnsafeMutableRawPointer(bitPattern: address)!
        }
    }
}
