import CZeroMQ

extension ZMQSocket {
    /// Sets a socket option (`zmq_setsockopt`), e.g. `try socket.set(.receiveHighWaterMark, 10_000)`.
    ///
    /// Setting ``ZMQOption/linger`` also changes what ``close()`` sets.
    public func set<Value>(_ option: ZMQOption<Value>, _ value: Value) throws(ZMQError) {
        let handle = try self.openHandle("zmq_setsockopt(\(option.rawValue))")
        try LibZMQ.callOnce("zmq_setsockopt(\(option.rawValue))") {
            option.codec.write(handle, option.rawValue, value)
        }
        if option.rawValue == ZMQ_LINGER, let linger = value as? Int32 {
            self.rememberLinger(linger)
        }
    }

    /// Reads a socket option (`zmq_getsockopt`), e.g. `try socket.get(.maxMessageSize)`.
    public func get<Value>(_ option: ZMQOption<Value>) throws(ZMQError) -> Value {
        let handle = try self.openHandle("zmq_getsockopt(\(option.rawValue))")
        return try option.codec.read(handle, option.rawValue)
    }

    /// Subscribes to messages whose first frame starts with `prefix` (`ZMQ_SUBSCRIBE`; `SUB`/`XSUB`).
    /// An empty prefix subscribes to everything. Takes effect at the publisher asynchronously.
    public func subscribe(_ prefix: [UInt8]) throws(ZMQError) {
        try self.set(.subscribe, prefix)
    }

    /// Subscribes to messages whose first frame starts with the UTF-8 bytes of `prefix`.
    public func subscribe(_ prefix: String = "") throws(ZMQError) {
        try self.set(.subscribe, Array(prefix.utf8))
    }

    /// Removes one earlier subscription to exactly `prefix` (`ZMQ_UNSUBSCRIBE`).
    public func unsubscribe(_ prefix: [UInt8]) throws(ZMQError) {
        try self.set(.unsubscribe, prefix)
    }

    /// Removes one earlier subscription to exactly the UTF-8 bytes of `prefix`.
    public func unsubscribe(_ prefix: String) throws(ZMQError) {
        try self.set(.unsubscribe, Array(prefix.utf8))
    }
}
