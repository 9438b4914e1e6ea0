import ConnectionLimits
import Foundation
import Logging
import ShardRouting
import ZeroMQ

/// The ingest thread's handle on the control thread, which owns the control `REP` socket and
/// a read-only connection to the history (`ControlServer`, made on that thread and never
/// leaving it). It answers history requests itself and hands what needs the engine to the
/// ingest thread through a `ControlExchange`, so that no request holds ingest for long.
/// The handle holds only what may cross threads.
final class ControlThread: Sendable {
    /// What the control thread is made from: plain values, handed to the thread.
    struct Settings: Sendable {
        /// The context of the control socket and of both ends of the PAIR.
        var context: ZMQContext
        /// Where the control `REP` socket binds.
        var control: String
        /// Reads the configuration again, for `reload` (read here, put in force by the ingest thread).
        var configurationSource: IngestLoop.ConfigurationSource
        /// Whether `reload` is refused on this endpoint (a `tcp://` one, unless the configuration allows it).
        var reloadRefused: Bool
        /// The `inproc` endpoint the ingest side's PAIR socket has bound, for the thread's to
        /// connect: bound first, so that a request served at once has a pipe for its bell.
        var pair: String
        /// The history store, or nil for none.
        var history: HistoryKeeper.Target?
        /// This daemon's shard, and the control endpoints of the other daemons (`shard.peers`)
        /// the thread compares it with (`ShardPeerWatch`).
        var shard: ShardAssignment?
        var shardPeers: [String]
        /// The daemon's clock: the `now` of replies and of `--since`.
        var clock = DaemonClock()
        /// Whether the control socket's connections are monitored for a `ConnectionGuard` named
        /// `control`, which must then connect: libzmq's I/O thread waits on a monitor event no one reads.
        var monitorConnections = false
        var logger: Logger
    }

    /// Where the two threads pass jobs and answers.
    let exchange: ControlExchange
    /// The endpoint the control socket bound (with the real port for a `*` port).
    let boundEndpoint: String
    private let finished: DispatchSemaphore

    private init(exchange: ControlExchange, boundEndpoint: String, finished: DispatchSemaphore) {
        self.exchange = exchange
        self.boundEndpoint = boundEndpoint
        self.finished = finished
    }

    /// Starts the thread and waits until its sockets are bound. On an error the thread has
    /// already ended and closed what it opened.
    static func start(_ settings: Settings) throws(DaemonError) -> ControlThread {
        let exchange = ControlExchange()
        let (endpoint, finished) = try SocketThread.start(
            name: "modalwatch-control",
            kernelName: "mw-control",
            open: { () throws(DaemonError) in try ControlServer(settings, exchange: exchange) },
            report: { $0.boundEndpoint },
            run: { $0.run() }
        )
        return ControlThread(exchange: exchange, boundEndpoint: endpoint, finished: finished)
    }

    /// Waits until the thread has closed its sockets: after `ControlExchange.Bell.finish`
    /// on the PAIR, or the context's shutdown. Call it once.
    func join() { finished.wait() }

    /// Says `finish` on the ingest side's end of the PAIR and waits for the thread to end; when
    /// the bell cannot go, ends the context's blocking calls instead. Call it once, on the ingest thread.
    func finish(through pair: ZMQSocket) {
        let rung = (try? pair.send([ControlExchange.Bell.finish.rawValue], flags: [.dontWait])) ?? false
        if !rung { pair.context.shutdown() }
        join()
    }
}
