import ConnectionLimits
import CurveAuthentication
import ZeroMQ

/// The parts the ingest loop works with, started by `Daemon` (its start-up steps) and stopped by
/// it in the reverse order: the ZeroMQ context, the CURVE handler, the publishing thread and its
/// hand-over, the control thread, the ingest `XSUB` and control `PAIR` sockets, the poller over
/// them and the wake-up, and the metrics server.
///
/// Made on the ingest thread and confined to it (its sockets belong to that thread).
/// A new socket or thread of the loop is a start-up step of `Daemon`, its handle kept here.
final class IngestResources {
    /// Where each poll item sits in `poller`.
    struct PollIndex {
        var ingest: Int
        var control: Int
        var wakeup: Int
        /// -1 without CURVE.
        var zap: Int
        /// The connection monitors: the ingest socket's, the publish socket's, the control socket's.
        var connections: [Int]
    }

    let context: ZMQContext
    let zap: ZapHandler?
    let publishing: PublishingThread
    let ingest: ZMQSocket
    /// The ingest side of the hand-over to the publishing thread.
    let handOver: HandOver
    /// The PAIR to the control thread (which owns the control `REP` socket).
    let control: ZMQSocket
    let controlThread: ControlThread
    let poller: ZMQPoller
    let index: PollIndex
    let metrics: (exporter: MetricsExporter, server: MetricsHTTPServer)?
    /// The bounds on the connections of the ingest, publish and control sockets, in that order.
    let connections: [ConnectionGuard]
    /// Every endpoint bound or connected, by role (`events`, `publish`, `control`, …).
    let endpoints: [String: [String]]
    /// The state directory's lock, held for the daemon's life (nil without a state directory).
    let stateLock: StateDirectoryLock?

    init(
        context: ZMQContext,
        zap: ZapHandler?,
        publishing: PublishingThread,
        ingest: ZMQSocket,
        handOver: HandOver,
        control: ZMQSocket,
        controlThread: ControlThread,
        poller: ZMQPoller,
        index: PollIndex,
        metrics: (exporter: MetricsExporter, server: MetricsHTTPServer)?,
        connections: [ConnectionGuard],
        endpoints: [String: [String]],
        stateLock: StateDirectoryLock?
    ) {
        self.connections = connections
        self.context = context
        self.zap = zap
        self.publishing = publishing
        self.ingest = ingest
        self.handOver = handOver
        self.control = control
        self.controlThread = controlThread
        self.poller = poller
        self.index = index
        self.metrics = metrics
        self.endpoints = endpoints
        self.stateLock = stateLock
    }
}

@available(*, unavailable)
extension IngestResources: Sendable {}
