import ByteBasics
import Logging
import ModalwatchConfig
import SessionEngine
import ShardRouting
import ZeroMQ

/// What sharding (scale.md) adds to the loop: the snapshot kept to the buckets owned,
/// and a stop that first tells the producers to stop sending.
extension IngestLoop {
    /// The snapshot without the sessions of buckets this daemon no longer owns (after a
    /// restart with another shard count); what was dropped is counted in the log.
    func keepingOwnedSessions(of snapshot: EngineSnapshot, logger: Logger) -> EngineSnapshot {
        guard let shard = configuration.shard else { return snapshot }
        let (kept, dropped) = snapshot.filtered(
            keepSession: { app, session in
                let key = shard.key == .app ? Array(app.utf8) : session
                return key.withUnsafeBytes { shard.owns(ShardBucket(keyBytes: $0)) }
            },
            keepApp: { app in shard.key == .session || shard.owns(ShardBucket(key: app)) }
        )
        if dropped > 0 {
            logger.notice(
                "dropped the snapshot's sessions of buckets this shard does not own; they start afresh on their new daemon",
                metadata: [
                    "dropped_sessions": "\(dropped)", "kept_sessions": "\(kept.sessionCount)", "shard": "\(shard)",
                ]
            )
        }
        return kept
    }

    /// Before a graceful stop: unsubscribes from everything, so producers stop sending to this
    /// daemon (and, through `XPUB`, count what they then cannot deliver), and takes what was
    /// already on its way until the socket stays quiet for `settleQuietMs` (at most `settleMaxMs`).
    /// The ingest socket is an `XSUB`, which does not filter by its own subscriptions: a `SUB`
    /// would drop what arrives after its unsubscription, though the producer sent it before.
    func unsubscribeAndSettle(_ ingest: ZMQSocket, _ settle: () -> Void) {
        for prefix in configuration.ingestSubscriptions {
            _ = try? ingest.send(Self.subscription(prefix, subscribe: false), flags: [.dontWait])
        }
        let poller = ZMQPoller()
        guard (try? poller.add(ingest)) != nil else { return }
        let deadline = PosixClock.monotonic.milliseconds() + Self.settleMaxMs
        while PosixClock.monotonic.milliseconds() < deadline {
            guard let ready = try? poller.poll(timeout: Int(Self.settleQuietMs)), ready > 0 else { return }
            settle()
        }
    }

    /// The message an `XSUB` sends to subscribe to (or unsubscribe from) a topic prefix.
    static func subscription(_ prefix: String, subscribe: Bool) -> [UInt8] {
        [subscribe ? 1 : 0] + Array(prefix.utf8)
    }

    /// How long the ingest socket must stay quiet after the unsubscription before the stop goes on.
    static let settleQuietMs: Int64 = 100
    /// The longest the settling after the unsubscription takes.
    static let settleMaxMs: Int64 = 2000
}
