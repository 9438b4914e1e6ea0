import CZeroMQ

extension ZMQSocket {
    /// Sends one frame (`zmq_send`; libzmq copies the bytes).
    ///
    /// - Parameters:
    ///   - bytes: the frame.
    ///   - flags: ``ZMQSendFlags/more`` when more frames of the message follow;
    ///     ``ZMQSendFlags/dontWait`` to return `false` instead of blocking.
    /// - Returns: `true` when the frame was queued; `false` only with ``ZMQSendFlags/dontWait``
    ///   when it could not be queued now (`EAGAIN`).
    /// - Throws: ``ZMQError``: ``ZMQError/isAgain`` when a blocking send's ``ZMQOption/sendTimeout``
    ///   expired, ``ZMQError/isTerminated`` after ``ZMQContext/shutdown()``. `EINTR` is retried.
    @discardableResult
    public func send(_ bytes: UnsafeRawBufferPointer, flags: ZMQSendFlags = []) throws(ZMQError) -> Bool {
        let handle = try self.openHandle("zmq_send")
        let outcome = try LibZMQ.call("zmq_send", wouldBlockIsResult: flags.contains(.dontWait)) {
            zmq_send(handle, bytes.baseAddress, bytes.count, flags.rawValue)
        }
        switch outcome {
        case .done: return true
        case .wouldBlock: return false
        }
    }

    /// Sends the frame a message holds, without copying it (`zmq_msg_send`): libzmq takes the
    /// frame and leaves `message` empty, ready to receive into again. For moving frames from one
    /// socket to another (a proxy); read ``ZMQMessage/hasMore`` before, it is gone after.
    ///
    /// - Parameters:
    ///   - message: the frame; empty after a `true` return, unchanged after `false` or a throw.
    ///   - flags: as for `send(_:flags:)` taking a buffer.
    /// - Returns: `true` when the frame was queued; `false` only with ``ZMQSendFlags/dontWait``
    ///   when it could not be queued now (`EAGAIN`).
    /// - Throws: ``ZMQError``, as `send(_:flags:)` taking a buffer. `EINTR` is retried.
    @discardableResult
    public func send(_ message: inout ZMQMessage, flags: ZMQSendFlags = []) throws(ZMQError) -> Bool {
        let handle = try self.openHandle("zmq_msg_send")
        let pointer = message.pointer
        let outcome = try LibZMQ.call("zmq_msg_send", wouldBlockIsResult: flags.contains(.dontWait)) {
            zmq_msg_send(pointer, handle, flags.rawValue)
        }
        switch outcome {
        case .done: return true
        case .wouldBlock: return false
        }
    }

    /// Sends one frame from an array; see `send(_:flags:)` taking a buffer.
    @discardableResult
    public func send(_ bytes: [UInt8], flags: ZMQSendFlags = []) throws(ZMQError) -> Bool {
        let outcome = bytes.withUnsafeBytes { buffer in
            Result { () throws(ZMQError) in try self.send(buffer, flags: flags) }
        }
        return try outcome.get()
    }

    /// Sends one frame with the UTF-8 bytes of a string (no terminating NUL);
    /// see `send(_:flags:)` taking a buffer.
    @discardableResult
    public func send(_ string: String, flags: ZMQSendFlags = []) throws(ZMQError) -> Bool {
        var string = string
        let outcome = string.withUTF8 { buffer in
            Result { () throws(ZMQError) in try self.send(UnsafeRawBufferPointer(buffer), flags: flags) }
        }
        return try outcome.get()
    }

    /// Sends a multipart message: every frame but the last with ``ZMQSendFlags/more``.
    ///
    /// - Parameters:
    ///   - frames: the frames, at least one (a frame may be empty).
    ///   - dontWait: return `false` instead of blocking when the message cannot be queued now.
    ///     libzmq accepts the later frames of a message once its first is queued, so `false`
    ///     means nothing was sent.
    /// - Returns: `true` when the whole message was queued.
    /// - Throws: ``ZMQError``; ``ZMQError/Code/invalidArgument`` for no frames,
    ///   ``ZMQError/Code/protocolViolation`` if libzmq refused a later frame with `EAGAIN`.
    @discardableResult
    public func sendMultipart(_ frames: [[UInt8]], dontWait: Bool = false) throws(ZMQError) -> Bool {
        guard !frames.isEmpty else {
            throw ZMQError(code: .invalidArgument, errno: EINVAL, operation: "sendMultipart: no frames")
        }
        let last = frames.count - 1
        for (index, frame) in frames.enumerated() {
            var flags: ZMQSendFlags = index == last ? [] : .more
            if dontWait { flags.insert(.dontWait) }
            if try !self.send(frame, flags: flags) {
                guard index == 0 else {
                    throw ZMQError(code: .protocolViolation, errno: EAGAIN, operation: "sendMultipart: frame \(index)")
                }
                return false
            }
        }
        return true
    }
}
