import CZeroMQ

extension ZMQSocket {
    /// Receives one frame into a reusable message, without copying it (`zmq_msg_recv`).
    ///
    /// The message's previous frame is released first (`zmq_msg_close` + `zmq_msg_init`), so
    /// nothing read from it before stays valid. After a `true` return, ``ZMQMessage/hasMore``
    /// says whether more frames of the same message follow; libzmq delivers a multipart message
    /// whole, so they are already there.
    ///
    /// - Parameters:
    ///   - message: where the frame goes.
    ///   - dontWait: return `false` instead of blocking when no frame is waiting.
    /// - Returns: `true` when a frame was received; `false` only with `dontWait` and nothing waiting.
    /// - Throws: ``ZMQError``: ``ZMQError/isAgain`` when a blocking receive's
    ///   ``ZMQOption/receiveTimeout`` expired, ``ZMQError/isTerminated`` after
    ///   ``ZMQContext/shutdown()``. `EINTR` is retried (wake a blocked receive with
    ///   ``ZMQContext/shutdown()``, or wait in a ``ZMQPoller`` with a wake-up descriptor instead).
    public func receive(into message: inout ZMQMessage, dontWait: Bool = false) throws(ZMQError) -> Bool {
        let handle = try self.openHandle("zmq_msg_recv")
        message.reset()
        let pointer = message.pointer
        let flags = dontWait ? ZMQ_DONTWAIT : 0
        let outcome = try LibZMQ.call("zmq_msg_recv", wouldBlockIsResult: dontWait) {
            zmq_msg_recv(pointer, handle, flags)
        }
        switch outcome {
        case .done: return true
        case .wouldBlock: return false
        }
    }

    /// Receives one frame as a new array (not for the hot path; see ``receive(into:dontWait:)``).
    ///
    /// - Returns: the frame, or `nil` with `dontWait` when nothing is waiting.
    public func receiveFrame(dontWait: Bool = false) throws(ZMQError) -> [UInt8]? {
        var message = ZMQMessage()
        guard try self.receive(into: &message, dontWait: dontWait) else { return nil }
        return message.bytes
    }

    /// Receives a whole multipart message as arrays, for the control socket and the command line
    /// (not for the hot path).
    ///
    /// - Parameters:
    ///   - maxFrames: how many frames to keep; later frames are received and dropped, so the
    ///     next receive starts at the next message. The result counts them all.
    ///   - dontWait: return `nil` instead of blocking when no message is waiting.
    /// - Returns: the message, or `nil` with `dontWait` when nothing is waiting.
    public func receiveMultipart(maxFrames: Int = .max, dontWait: Bool = false) throws(ZMQError) -> ZMQMultipart? {
        guard maxFrames >= 0 else {
            throw ZMQError(
                code: .invalidArgument,
                errno: EINVAL,
                operation: "receiveMultipart(maxFrames: \(maxFrames))"
            )
        }
        var message = ZMQMessage()
        guard try self.receive(into: &message, dontWait: dontWait) else { return nil }
        var result = ZMQMultipart(frames: [], frameCount: 0)
        while true {
            result.frameCount += 1
            if result.frames.count < maxFrames {
                result.frames.append(message.bytes)
            }
            guard message.hasMore else { return result }
            // The rest of a multipart message arrives with its first frame: never blocks.
            guard try self.receive(into: &message, dontWait: true) else {
                throw ZMQError(
                    code: .protocolViolation,
                    errno: EAGAIN,
                    operation: "receiveMultipart: frame \(result.frameCount) missing"
                )
            }
        }
    }
}
