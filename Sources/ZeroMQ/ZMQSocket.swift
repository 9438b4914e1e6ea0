import CZeroMQ

/// A ZeroMQ socket.
///
/// A socket belongs to ONE thread for its whole life: libzmq sockets are not thread-safe, so this
/// class is deliberately not `Sendable` (Swift's strict concurrency then keeps it in the isolation
/// domain that made it). Make it on the thread that uses it.
///
/// ``close()`` always sets `ZMQ_LINGER` (to ``linger``, 0 unless you set ``ZMQOption/linger``)
/// before `zmq_close`, so that a closed socket never holds up ``ZMQContext/terminate()`` longer
/// than that; it is idempotent, and `deinit` closes a socket that is still open. Every other call
/// on a closed socket throws ``ZMQError`` with code ``ZMQError/Code/socketClosed``.
///
/// The socket keeps its context alive.
public final class ZMQSocket {
    /// The context the socket was made from.
    public let context: ZMQContext
    /// The socket's type.
    public let type: ZMQSocketType
    /// The linger period, in milliseconds, that ``close()`` sets before closing: the last value given
    /// to ``set(_:_:)`` with ``ZMQOption/linger``, or the one given to ``init(_:type:linger:)``.
    public private(set) var linger: Int32
    /// The libzmq socket; `nil` once closed.
    private var handle: UnsafeMutableRawPointer?

    /// Makes a socket.
    ///
    /// - Parameters:
    ///   - context: the context to make it in.
    ///   - type: the socket type.
    ///   - linger: the linger period in milliseconds, set now (libzmq's own default is `-1`,
    ///     which lets unsent messages block context termination forever) and again at close.
    /// - Throws: ``ZMQError``; ``ZMQError/isTerminated`` when the context is shut down.
    public init(_ context: ZMQContext, type: ZMQSocketType, linger: Int32 = 0) throws(ZMQError) {
        let raw = try context.makeSocket(type: type.rawValue, operation: "zmq_socket(\(type))")
        self.context = context
        self.type = type
        self.linger = linger
        self.handle = raw
        var value = linger
        let result = zmq_setsockopt(raw, ZMQ_LINGER, &value, MemoryLayout<Int32>.size)
        if result != 0 {
            let error = LibZMQ.lastError("zmq_setsockopt(ZMQ_LINGER)")
            self.close()
            throw error
        }
    }

    deinit {
        self.close()
    }

    /// `true` once ``close()`` was called.
    public var isClosed: Bool {
        self.handle == nil
    }

    /// Closes the socket: sets `ZMQ_LINGER` to ``linger``, then `zmq_close`. Calling it again does nothing.
    ///
    /// Setting the linger period fails only when the context is already shut down; the socket is
    /// closed anyway (the period it was last given stays in force).
    public func close() {
        guard let handle = self.handle else { return }
        self.handle = nil
        var value = self.linger
        _ = zmq_setsockopt(handle, ZMQ_LINGER, &value, MemoryLayout<Int32>.size)
        let result = zmq_close(handle)
        precondition(result == 0, "zmq_close failed: errno \(zmq_errno())")
    }

    /// Binds to an endpoint (`zmq_bind`), e.g. `tcp://127.0.0.1:7450`, `tcp://127.0.0.1:*`
    /// (see ``lastEndpoint`` for the port chosen), `ipc:///run/x.sock`, `inproc://name`.
    public func bind(_ endpoint: String) throws(ZMQError) {
        let handle = try self.openHandle("zmq_bind(\(endpoint))")
        try LibZMQ.callOnce("zmq_bind(\(endpoint))") { zmq_bind(handle, endpoint) }
    }

    /// Connects to an endpoint (`zmq_connect`). Succeeds before the peer exists; libzmq connects
    /// (and reconnects) in the background.
    public func connect(_ endpoint: String) throws(ZMQError) {
        let handle = try self.openHandle("zmq_connect(\(endpoint))")
        try LibZMQ.callOnce("zmq_connect(\(endpoint))") { zmq_connect(handle, endpoint) }
    }

    /// Stops listening on a bound endpoint (`zmq_unbind`); for a `*` port, pass ``lastEndpoint``.
    public func unbind(_ endpoint: String) throws(ZMQError) {
        let handle = try self.openHandle("zmq_unbind(\(endpoint))")
        try LibZMQ.callOnce("zmq_unbind(\(endpoint))") { zmq_unbind(handle, endpoint) }
    }

    /// Drops a connected endpoint (`zmq_disconnect`).
    public func disconnect(_ endpoint: String) throws(ZMQError) {
        let handle = try self.openHandle("zmq_disconnect(\(endpoint))")
        try LibZMQ.callOnce("zmq_disconnect(\(endpoint))") { zmq_disconnect(handle, endpoint) }
    }

    /// The endpoint last bound (`ZMQ_LAST_ENDPOINT`), with the real port for a `*` port,
    /// e.g. `tcp://127.0.0.1:41235`.
    public var lastEndpoint: String {
        get throws(ZMQError) { try self.get(.lastEndpoint) }
    }

    /// The libzmq socket, or ``ZMQError/Code/socketClosed``.
    @inline(__always)
    func openHandle(_ operation: @autoclosure () -> String) throws(ZMQError) -> UnsafeMutableRawPointer {
        guard let handle = self.handle else {
            throw ZMQError(code: .socketClosed, errno: ENOTSOCK, operation: operation())
        }
        return handle
    }

    /// Records the linger period that ``close()`` will set.
    func rememberLinger(_ value: Int32) {
        self.linger = value
    }
}

/// A socket belongs to one thread; it must never be sent to another.
@available(*, unavailable)
extension ZMQSocket: Sendable {}
