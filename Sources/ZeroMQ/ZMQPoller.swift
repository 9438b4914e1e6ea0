import CZeroMQ

/// A reusable set of things to wait on at once with `zmq_poll`: ZeroMQ sockets and plain file
/// descriptors (an eventfd, a signalfd, a pipe).
///
/// Add items once, then call ``poll(timeout:)`` in a loop and ask ``isReadable(_:)`` by the index
/// ``add(_:events:)`` returned. Polling allocates nothing. The poller keeps its sockets alive;
/// it belongs, like they do, to one thread.
public final class ZMQPoller {
    /// The items handed to `zmq_poll`.
    private var items: [zmq_pollitem_t] = []
    /// For each item, its socket (`nil` for a file descriptor).
    private var sockets: [ZMQSocket?] = []

    /// Creates an empty poller.
    public init() {}

    /// How many items the poller has.
    public var count: Int {
        self.items.count
    }

    /// Adds a socket.
    ///
    /// - Returns: the item's index, for ``isReadable(_:)``.
    @discardableResult
    public func add(_ socket: ZMQSocket, events: ZMQPollEvents = .readable) throws(ZMQError) -> Int {
        let handle = try socket.openHandle("ZMQPoller.add")
        self.items.append(zmq_pollitem_t(socket: handle, fd: -1, events: events.rawValue, revents: 0))
        self.sockets.append(socket)
        return self.items.count - 1
    }

    /// Adds a file descriptor; the poller does not own it.
    ///
    /// - Returns: the item's index, for ``isReadable(_:)``.
    @discardableResult
    public func add(fileDescriptor: Int32, events: ZMQPollEvents = .readable) -> Int {
        self.items.append(zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: events.rawValue, revents: 0))
        self.sockets.append(nil)
        return self.items.count - 1
    }

    /// Removes every item.
    public func removeAll() {
        self.items.removeAll(keepingCapacity: true)
        self.sockets.removeAll(keepingCapacity: true)
    }

    /// Waits until at least one item is ready or the timeout passes (`zmq_poll`).
    ///
    /// - Parameter milliseconds: how long to wait; `0` does not wait, `-1` waits forever.
    /// - Returns: how many items are ready; `0` on timeout, and also when a signal interrupted
    ///   the wait (`EINTR`): the caller loops.
    /// - Throws: ``ZMQError``: ``ZMQError/isTerminated`` when a socket's context was shut down,
    ///   ``ZMQError/Code/socketClosed`` when a socket was closed after it was added.
    public func poll(timeout milliseconds: Int) throws(ZMQError) -> Int {
        for index in self.sockets.indices {
            guard let socket = self.sockets[index] else { continue }
            let handle = try socket.openHandle("zmq_poll: item \(index)")
            precondition(self.items[index].socket == handle, "socket handle changed under the poller")
        }
        let itemCount = Int32(self.items.count)
        let result = self.items.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(ZMQError) in
                try LibZMQ.callOnce("zmq_poll") { zmq_poll(buffer.baseAddress, itemCount, milliseconds) }
            }
        }
        switch result {
        case .success(let ready):
            return Int(ready)
        case .failure(let error) where error.isInterrupted:
            for index in self.items.indices {
                self.items[index].revents = 0
            }
            return 0
        case .failure(let error):
            throw error
        }
    }

    /// The events item `index` reported in the last ``poll(timeout:)``.
    public func events(at index: Int) -> ZMQPollEvents {
        ZMQPollEvents(rawValue: self.items[index].revents)
    }

    /// `true` when item `index` was readable in the last ``poll(timeout:)``.
    public func isReadable(_ index: Int) -> Bool {
        self.events(at: index).contains(.readable)
    }

    /// `true` when item `index` was writable in the last ``poll(timeout:)``.
    public func isWritable(_ index: Int) -> Bool {
        self.events(at: index).contains(.writable)
    }
}

/// A poller belongs to the thread of its sockets.
@available(*, unavailable)
extension ZMQPoller: Sendable {}
