import ControlProtocol

/// Asks a daemon's control socket for `status` (typed, ControlProtocol's `StatusReply`), from
/// the bench's main thread, and polls it until a condition holds.
final class StatusPoller {
    private let client: ControlClient
    /// Status requests made.
    private(set) var requests = 0

    /// A poller of the control socket at `endpoint`.
    init(endpoint: String, timeoutMs: Int = 5000) {
        client = ControlClient(endpoint: endpoint, timeoutMs: timeoutMs)
    }

    /// One `status` request and its reply.
    func status() throws(BenchError) -> StatusReply {
        requests += 1
        do {
            return try client.send(StatusRequest())
        } catch {
            throw BenchError("status request failed: \(error)")
        }
    }

    /// Polls `status` every `intervalMs` until `done` says so; returns that reply and when it arrived.
    func poll(
        intervalMs: Int,
        timeoutMs: Int,
        what: String,
        until done: (StatusReply) -> Bool
    ) throws(BenchError) -> (StatusReply, UInt64) {
        let deadline = MonotonicClock.nanoseconds() + UInt64(timeoutMs) * 1_000_000
        var next = MonotonicClock.nanoseconds()
        while true {
            let reply = try status()
            let now = MonotonicClock.nanoseconds()
            if done(reply) { return (reply, now) }
            if now > deadline {
                throw BenchError(
                    "timed out after \(timeoutMs) ms waiting for \(what); last status: \(Self.summary(reply))"
                )
            }
            next += UInt64(intervalMs) * 1_000_000
            if next > now { MonotonicClock.sleep(until: next) } else { next = now }
        }
    }

    /// Polls `status` until `counter` reaches `total`, asking less often while far from it
    /// (every status reply costs the daemon's one thread some time): the next request goes
    /// when about half the remaining events should be done at the rate seen so far, at most
    /// every `maxIntervalMs` and at least every 5 ms. Returns that reply and when it arrived.
    func pollAdaptively(
        total: Int,
        maxIntervalMs: Int,
        timeoutMs: Int,
        what: String,
        counter: KeyPath<StatusReply, Int>
    ) throws(BenchError) -> (StatusReply, UInt64) {
        let start = MonotonicClock.nanoseconds()
        let deadline = start + UInt64(timeoutMs) * 1_000_000
        let first = try status()[keyPath: counter]
        while true {
            let reply = try status()
            let now = MonotonicClock.nanoseconds()
            let done = reply[keyPath: counter]
            if done >= total { return (reply, now) }
            if now > deadline {
                throw BenchError(
                    "timed out after \(timeoutMs) ms waiting for \(what); last status: \(Self.summary(reply))"
                )
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
        let counters: [(String, Int)] =
            ([
                .eventsReceived, .eventsJudged, .eventsRejected, .duplicates, .sessionsLive, .violationsFound,
                .violationsPublished, .messagesDropped,
            ] as [StatusCounter]).map { ($0.rawValue, reply[$0]) }
        return counters.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }
}
