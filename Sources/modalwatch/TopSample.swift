import Foundation

/// One look at the daemon for `top`: its status and its most recently active sessions,
/// with rates worked out against the look before.
struct TopSample {
    /// The `status` reply.
    let status: [String: Any]
    /// The `sessions` reply's sessions, busiest first once ranked.
    private(set) var sessions: [[String: Any]]
    /// Live sessions in all.
    let total: Int
    /// The daemon's wall clock (ms) when it answered.
    let now: Double
    /// When this sample was taken (monotonic seconds).
    let taken: Double
    /// Violations published per second since the sample before, if there was one.
    private(set) var violationsPerSecond: Double?

    /// Sessions asked for each time: the most recently active, where the busy ones are.
    static let window = 200

    /// Asks the daemon; `previous` gives the rates.
    static func take(_ client: ControlClient, after previous: TopSample?) throws(ControlClient.Failure) -> TopSample {
        let status = try client.exchange(["cmd": "status"]).reply
        let listing = try client.exchange(["cmd": "sessions", "sort": "recent", "limit": window]).reply
        var sample = TopSample(
            status: status, sessions: listing["sessions"] as? [[String: Any]] ?? [],
            total: listing["total"] as? Int ?? 0, now: RelativeTime.number(listing["now"]) ?? RelativeTime.nowMs,
            taken: Self.monotonic(), violationsPerSecond: nil)
        sample.rank(after: previous)
        return sample
    }

    /// Seconds on the monotonic clock.
    static func monotonic() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Adds `events_per_second` to each session seen before, and orders the sessions busiest first.
    private mutating func rank(after previous: TopSample?) {
        if let previous, taken > previous.taken {
            let seconds = taken - previous.taken
            var before: [String: Double] = [:]
            for s in previous.sessions {
                if let id = s["id"] as? String, let events = RelativeTime.number(s["events"]) { before[id] = events }
            }
            for i in sessions.indices {
                guard let id = sessions[i]["id"] as? String, let events = RelativeTime.number(sessions[i]["events"]) else { continue }
                // A session not seen before started within the interval: all its events are new.
                sessions[i]["events_per_second"] = max(0, events - (before[id] ?? 0)) / seconds
            }
            if let now = RelativeTime.number(status["violations_published"]),
               let then = RelativeTime.number(previous.status["violations_published"]) {
                violationsPerSecond = max(0, now - then) / seconds
            }
        }
        func key(_ s: [String: Any]) -> (Double, Double) {
            (RelativeTime.number(s["events_per_second"]) ?? 0, RelativeTime.number(s["events"]) ?? 0)
        }
        sessions.sort { key($0) > key($1) }
    }

    /// The sample as `top --json` prints it.
    var json: [String: Any] {
        [
            "now": now, "status": status, "sessions": sessions, "total": total,
            "violations_per_second": violationsPerSecond.map { $0 as Any } ?? NSNull(),
            "events_per_second": status["events_per_second"] ?? NSNull(),
        ]
    }
}
