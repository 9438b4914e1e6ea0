import ControlProtocol
import Synchronization

/// The `status` reply as the ingest loop last published it, for the control thread to answer
/// `status` with no job on the ingest thread. The loop publishes it at each tick
/// (`IngestLoop.tickMs`), before it says READY, after a reload and at its stop, so a reply is
/// at most one tick old. The parts that must be read at the moment of the reply are left to
/// ``reply(nowMonotonicMs:nowMs:controlRequests:)``: the uptime, the counts' age, the checkpoint's
/// age and the control requests answered; the control thread adds its shard peers' (`ShardPeerWatch`).
final class CounterSnapshot: Sendable {
    /// One publication.
    struct Published: Sendable {
        /// The reply as the ingest loop built it, without its live parts.
        var reply: StatusReply
        /// When the loop started (monotonic ms), for the uptime.
        var startedMonotonicMs: Int64
        /// When the loop published it (monotonic ms), for the counts' age.
        var publishedMonotonicMs: Int64
        /// When the newest whole checkpoint's walk began (the daemon's clock, ms), for its age; nil for none.
        var checkpointAtMs: Int64?
    }

    private let latest = Mutex<Published?>(nil)

    /// An empty snapshot: nothing published yet.
    init() {}

    /// Replaces the snapshot.
    func publish(_ published: Published) {
        latest.withLock { $0 = published }
    }

    /// The `status` reply from the latest publication, its live parts read now: `nowMonotonicMs`
    /// on the monotonic clock, `nowMs` on the daemon's; nil before the first publication.
    func reply(nowMonotonicMs: Int64, nowMs: Int64, controlRequests: Int) -> StatusReply? {
        guard let published = latest.withLock({ $0 }) else { return nil }
        var reply = published.reply
        reply.uptimeSeconds = Self.seconds(from: published.startedMonotonicMs, to: nowMonotonicMs)
        reply.countsAgeSeconds = Self.seconds(from: published.publishedMonotonicMs, to: nowMonotonicMs)
        reply.faults.checkpointAgeSeconds = published.checkpointAtMs.map { Self.seconds(from: $0, to: nowMs) }
        reply[.controlRequests] = controlRequests
        return reply
    }

    /// Seconds from `start` to `end` (ms), 0 for an `end` before `start`.
    private static func seconds(from start: Int64, to end: Int64) -> Double {
        Double(max(0, end - start)) / 1000
    }
}
