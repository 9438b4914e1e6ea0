import CZeroMQ

/// The one place that calls into libzmq for anything that can fail, in the spirit of swift-nio's
/// `syscall` helper: it reads errno at once (with `zmq_errno()`, before anything else can
/// overwrite it), retries `EINTR` where a retry is right, and turns the rest into ``ZMQError``.
enum LibZMQ {
    /// The outcome of a call that may report "would block" instead of failing.
    enum Outcome {
        /// The call succeeded and returned this value.
        case done(Int32)
        /// The call failed with `EAGAIN` and the caller asked for that to be a result.
        case wouldBlock
    }

    /// Calls `body` until it does not fail with `EINTR`.
    ///
    /// - Parameters:
    ///   - operation: the operation's name, built only if the call fails.
    ///   - wouldBlockIsResult: when `true`, `EAGAIN` is returned as ``Outcome/wouldBlock``
    ///     instead of being thrown.
    ///   - body: the libzmq call; returns `-1` on failure, as libzmq does.
    @inline(__always)
    static func call(
        _ operation: @autoclosure () -> String,
        wouldBlockIsResult: Bool = false,
        _ body: () -> Int32
    ) throws(ZMQError) -> Outcome {
        while true {
            let result = body()
            if result != -1 {
                return .done(result)
            }
            let code = zmq_errno()
            switch code {
            case EINTR:
                continue
            case EAGAIN where wouldBlockIsResult:
                return .wouldBlock
            default:
                throw ZMQError(code: .callFailed, errno: code, operation: operation())
            }
        }
    }

    /// Calls `body` until it does not fail with `EINTR`; every other failure is thrown.
    @inline(__always)
    @discardableResult
    static func call(_ operation: @autoclosure () -> String, _ body: () -> Int32) throws(ZMQError) -> Int32 {
        switch try call(operation(), wouldBlockIsResult: false, body) {
        case .done(let value): return value
        case .wouldBlock: preconditionFailure("EAGAIN reported as a result though not asked for")
        }
    }

    /// Calls `body` once; a failure (including `EINTR`) is thrown. For calls where a retry would be
    /// wrong or where `EINTR` cannot happen.
    @inline(__always)
    @discardableResult
    static func callOnce(_ operation: @autoclosure () -> String, _ body: () -> Int32) throws(ZMQError) -> Int32 {
        let result = body()
        if result == -1 {
            let code = zmq_errno()
            throw ZMQError(code: .callFailed, errno: code, operation: operation())
        }
        return result
    }

    /// The error for the errno libzmq reports now (after a call that returned `NULL`).
    static func lastError(_ operation: String) -> ZMQError {
        ZMQError(code: .callFailed, errno: zmq_errno(), operation: operation)
    }
}
