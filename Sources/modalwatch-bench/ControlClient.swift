import ZeroMQ

/// Asks a daemon's control `REP` socket for `status`, from the bench's main thread.
final class ControlClient {
    private let context: ZMQContext
    private let endpoint: String
    private var socket: ZMQSocket?
    private let timeoutMs: Int32
    /// Status requests made.
    private(set) var requests = 0

    /// A client of the control socket at `endpoint`.
    init(endpoint: String, timeoutMs: Int32 = 5000) throws(BenchError) {
        do { context = try ZMQContext(ioThreads: 1) } catch { throw BenchError("cannot create a ZeroMQ context: \(error)") }
        self.endpoint = endpoint
        self.timeoutMs = timeoutMs
    }

    deinit {
        socket?.close()
        context.terminate()
    }

    /// One `status` request and its reply.
    func status() throws(BenchError) -> StatusReply {
        do {
            let socket = try open()
            requests += 1
            try socket.send(#"{"v":1,"cmd":"status"}"#)
            guard let reply = try socket.receiveFrame() else { throw BenchError("no status reply") }
            return StatusReply(bytes: reply)
        } catch let error as ZMQError {
            // A REQ socket that missed its reply cannot ask again: start over next time.
            self.socket?.close()
            self.socket = nil
            throw BenchError(error.isAgain
                ? "the daemon did not answer status within \(timeoutMs) ms (\(endpoint))"
                : "status request to \(endpoint) failed: \(error)")
        } catch {
            throw error as? BenchError ?? BenchError("\(error)")
        }
    }

    /// Polls `status` every `intervalMs` until `done` says so; returns that reply and when it arrived.
    func poll(intervalMs: Int, timeoutMs: Int, what: String, until done: (StatusReply) -> Bool) throws(BenchError) -> (StatusReply, UInt64) {
        let deadline = MonotonicClock.nanoseconds() + UInt64(timeoutMs) * 1_000_000
        var next = MonotonicClock.nanoseconds()
        while true {
            let reply = try status()
            let now = MonotonicClock.nanoseconds()
            if done(reply) { return (reply, now) }
            if now > deadline {
                throw BenchError("timed out after \(timeoutMs) ms waiting for \(what); last status: \(Self.summary(reply))")
            }
            next += UInt64(intervalMs) * 1_000_000
            if next > now { MonotonicClock.sleep(until: next) } else { next = now }
        }
    }

    /// Polls `status` until `counter` reaches `total`, asking less often while far from it
    /// (every status reply costs the daemon's one thread some time): the next request goes
    /// when about half the remaining events should be done at the rate seen so far, at most
    /// every `maxIntervalMs` and at least every 5 ms. Returns that reply and when it arrived.
    func pollAdaptively(total: Int, maxIntervalMs: Int, timeoutMs: Int, what: String, counter: String) throws(BenchError) -> (StatusReply, UInt64) {
        let start = MonotonicClock.nanoseconds()
        let deadline = start + UInt64(timeoutMs) * 1_000_000
        let first = try status()[counter]
        while true {
            let reply = try status()
            let now = MonotonicClock.nanoseconds()
            let done = reply[counter]
            if done >= total { return (reply, now) }
            if now > deadline {
                throw BenchError("timed out after \(timeoutMs) ms waiting for \(what); last status: \(Self.summary(reply))")
            }
            let elapsed = Double(now - start) / 1e9
            let rate = Double(done - first) / max(elapsed, 1e-3)
            let remaining = rate > 0 ? Double(total - done) / rate : Double(maxIntervalMs) / 1000
            let waitMs = min(Double(maxIntervalMs), max(5, remaining * 1000 / 2))
            MonotonicClock.sleep(until: now + UInt64(waitMs * 1e6))
        }
    }

    /// The counters that matter, on one line.
    static func summary(_ reply: StatusReply) -> String {
        ["events_received", "events_judged", "events_rejected", "duplicates", "sessions_live",
         "violations_found", "violations_published", "messages_dropped"]
            .map { "\($0)=\(reply[$0])" }.joined(separator: " ")
    }

    private func open() throws(ZMQError) -> ZMQSocket {
        if let socket { return socket }
        let made = try ZMQSocket(context, type: .req, linger: 0)
        try made.set(.receiveTimeout, timeoutMs)
        try made.set(.sendTimeout, timeoutMs)
        try made.connect(endpoint)
        socket = made
        return made
    }
}
