import CZeroMQ

/// A reusable receive buffer: the sole owner of one heap-allocated `zmq_msg_t`.
///
/// Allocate one per receiving loop and pass it to ``ZMQSocket/receive(into:dontWait:)`` again and
/// again: the `zmq_msg_t` is allocated once, released and re-initialised before each receive, and
/// closed and freed exactly once, in `deinit`. Reading the frame (``withBytes(_:)``) copies nothing.
///
/// The type is non-copyable, so the `zmq_msg_t` can never be duplicated, closed twice, or read
/// after the value moved away; it is not `Sendable` (keep it with its socket's thread).
public struct ZMQMessage: ~Copyable {
    /// The `zmq_msg_t`, always initialised.
    let pointer: UnsafeMutablePointer<zmq_msg_t>

    /// Allocates and initialises an empty message.
    public init() {
        // zmq.h asks for pointer alignment at least; Swift may import the struct with a smaller one.
        let alignment = max(MemoryLayout<zmq_msg_t>.alignment, MemoryLayout<UnsafeRawPointer>.alignment)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<zmq_msg_t>.size, alignment: alignment)
        self.pointer = raw.bindMemory(to: zmq_msg_t.self, capacity: 1)
        let result = zmq_msg_init(self.pointer)
        precondition(result == 0, "zmq_msg_init failed: errno \(zmq_errno())")
    }

    deinit {
        let result = zmq_msg_close(self.pointer)
        precondition(result == 0, "zmq_msg_close failed: errno \(zmq_errno())")
        UnsafeMutableRawPointer(self.pointer).deallocate()
    }

    /// The frame's size in bytes (0 before the first receive and after a receive that got nothing).
    public var count: Int {
        zmq_msg_size(self.pointer)
    }

    /// `true` when the frame is empty.
    public var isEmpty: Bool {
        self.count == 0
    }

    /// `true` when more frames of the same message follow this one (`zmq_msg_more`).
    public var hasMore: Bool {
        zmq_msg_more(self.pointer) != 0
    }

    /// Calls `body` with the frame's bytes, in place. The pointer is valid only inside `body`
    /// and only until the next receive into this message: do not let it escape.
    public func withBytes<Result: ~Copyable, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let size = zmq_msg_size(self.pointer)
        guard size > 0, let data = zmq_msg_data(self.pointer) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: data, count: size))
    }

    /// A copy of the frame's bytes (not for the hot path).
    public var bytes: [UInt8] {
        self.withBytes { Array($0) }
    }

    /// The descriptor of the connection the frame came in on (`zmq_msg_get(ZMQ_SRCFD)`), or nil
    /// when it came from no connection of its own (`inproc://`, or a message libzmq made).
    /// libzmq may have closed the descriptor since, and the process may have reused its number.
    public var sourceDescriptor: Int32? {
        let descriptor = zmq_msg_get(self.pointer, ZMQ_SRCFD)
        return descriptor >= 0 ? descriptor : nil
    }

    /// The frame's `Peer-Address` property (the peer's numeric host; for `ipc://`, `:uid:gid:pid`
    /// after it), or nil when it has none (no connection of its own, as for ``sourceDescriptor``).
    public var peerAddress: String? {
        guard let value = zmq_msg_gets(self.pointer, "Peer-Address") else { return nil }
        return String(cString: value)
    }

    /// Where libzmq keeps the `Peer-Address` of the frame's connection: one value for every frame
    /// of one connection (the connection's metadata), and no other connection's while a frame of it
    /// (a ``copy()`` included) is still held. Nil without one (as for ``peerAddress``).
    public var connectionIdentity: UInt? {
        zmq_msg_gets(self.pointer, "Peer-Address").map { UInt(bitPattern: $0) }
    }

    /// A second message holding the same frame and the same connection metadata
    /// (`zmq_msg_copy`): holding it keeps ``connectionIdentity`` the connection's alone.
    public func copy() -> ZMQMessage {
        let copy = ZMQMessage()
        let result = zmq_msg_copy(copy.pointer, self.pointer)
        precondition(result == 0, "zmq_msg_copy failed: errno \(zmq_errno())")
        return copy
    }

    /// Releases the previous frame and leaves the message empty, ready to receive into
    /// (`zmq_msg_close`, then `zmq_msg_init`).
    mutating func reset() {
        var result = zmq_msg_close(self.pointer)
        precondition(result == 0, "zmq_msg_close failed: errno \(zmq_errno())")
        result = zmq_msg_init(self.pointer)
        precondition(result == 0, "zmq_msg_init failed: errno \(zmq_errno())")
    }
}

/// A message belongs to the thread of the socket it receives from.
@available(*, unavailable)
extension ZMQMessage: Sendable {}
