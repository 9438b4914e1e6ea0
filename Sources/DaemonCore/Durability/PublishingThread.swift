import ConnectionLimits
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// The ingest thread's handle on the publishing thread, which owns the violations
/// publish socket (an `XPUB`) and writes the history (`Publisher`, made on that thread and never
/// leaving it). The handle holds only what may cross threads: the settings went in,
/// the bound endpoint and the counters come out, and `join()` waits for the end.
final class PublishingThread: Sendable {
    /// Retention of the history.
    struct Retention: Sendable {
        var maxAgeMs: Int64?
        var maxRows: Int?
        /// How often it runs (`Publisher.pruneIfDue`).
        var intervalMs: Int64 = Publisher.pruneIntervalMs
    }

    /// What the publishing thread is made from: plain values, handed to the thread,
    /// which builds its `Publisher` (and so its sockets) itself.
    struct Settings: Sendable {
        /// The context of the publish socket.
        var context: ZMQContext
        /// What the ingest thread hands over (it keeps the other end).
        var handOver: HandOver
        /// Where the violations publish socket binds.
        var publish: String
        /// The history store, or nil for none.
        var history: HistoryKeeper.Target?
        var retention: Retention
        /// The bounds of the spool of violations the store could not take (violations.md).
        var spool = HistoryKeeper.SpoolBounds(memoryBytes: 64 << 20, fileBytes: 0)
        /// The WAL's size past which the store counts as failing (`history.wal_limit`).
        var walLimitBytes = 256 << 20
        /// While commits follow each other, the least time between their starts, µs (0: each
        /// group as soon as the previous commit ends). See `Publisher.defaultCommitSpacingUs`.
        var commitSpacingUs = Publisher.defaultCommitSpacingUs
        /// The bounds of the publish socket's subscriptions (`SubscriptionGuard`).
        var subscriptionLimits = SubscriptionGuard.Limits.defaults
        /// The CURVE secret key for the publish socket, or nil for plain text.
        var curveSecretKey: String?
        /// The daemon's clock: the retention's `now`.
        var clock = DaemonClock()
        /// Whether the publish socket's connections are monitored for a `ConnectionGuard` named
        /// `publish`, which must then connect: libzmq's I/O thread waits on a monitor event no one reads.
        var monitorConnections = false
        var logger: Logger
    }

    /// The thread's counters, read by `status`.
    let statistics: PublishingStatistics
    /// The history store's health and spool, read by `status` and the metrics.
    let health: StoreHealth
    /// The endpoint the publish socket bound (with the real port for a `*` port).
    let boundEndpoint: String
    /// What the ingest thread hands over: `HandOver.finish` ends the thread.
    let handOver: HandOver
    private let finished: DispatchSemaphore

    private init(
        statistics: PublishingStatistics,
        health: StoreHealth,
        boundEndpoint: String,
        handOver: HandOver,
        finished: DispatchSemaphore
    ) {
        self.statistics = statistics
        self.health = health
        self.boundEndpoint = boundEndpoint
        self.handOver = handOver
        self.finished = finished
    }

    /// The publishing thread's name in the kernel (`comm`; `modalwatch-bench` reads its CPU time by it).
    static let kernelThreadName = "mw-publish"

    /// Starts the thread and waits until its sockets are bound and the history is open.
    /// On an error the thread has already ended and closed what it opened.
    static func start(_ settings: Settings) throws(DaemonError) -> PublishingThread {
        let statistics = PublishingStatistics()
        let health = StoreHealth()
        let (endpoint, finished) = try SocketThread.start(
            name: "modalwatch-publish",
            kernelName: Self.kernelThreadName,
            open: { () throws(DaemonError) in try Publisher(settings, statistics: statistics, health: health) },
            report: { $0.boundEndpoint },
            run: { $0.run() }
        )
        return PublishingThread(
            statistics: statistics,
            health: health,
            boundEndpoint: endpoint,
            handOver: settings.handOver,
            finished: finished
        )
    }

    /// Waits until the thread has published everything handed over before `HandOver.finish`
    /// and closed its sockets. Call it once, after `finish`.
    func join() { finished.wait() }
}
