import ConnectionLimits
import CurveAuthentication
import EventDecoding
import Foundation
import Glibc
import HistoryStore
import Logging
import ModalwatchConfig
import Posix
import PostgresHistory
import ZeroMQ

/// Everything the ingest thread opens before it polls, opened in `open(_:)` and closed
/// in `close()` in the reverse order: the ZeroMQ context, the CURVE handler, the
/// publishing thread and its hand-over, the control thread, the ingest `XSUB` and control `PAIR` sockets,
/// the poller over them and the wake-up, and the metrics server.
///
/// Made on the ingest thread and confined to it (its sockets belong to that thread).
/// A new socket or thread of the loop belongs here: one line to open it in `open`,
/// one to close it in `close`.
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

    private init(
        context: ZMQContext, zap: ZapHandler?, publishing: PublishingThread, ingest: ZMQSocket, handOver: HandOver,
        control: ZMQSocket, controlThread: ControlThread, poller: ZMQPoller, index: PollIndex,
        metrics: (exporter: MetricsExporter, server: MetricsHTTPServer)?,
        connections: [ConnectionGuard], endpoints: [String: [String]], stateLock: StateDirectoryLock?
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

    /// Opens everything for `configuration`; on an error, closes what it had opened and throws.
    static func open(
        _ configuration: DaemonConfiguration, wakeup: Wakeup, configurationSource: @escaping IngestLoop.ConfigurationSource,
        clock: DaemonClock, logger: Logger
    ) throws(DaemonError) -> IngestResources {
        var undo = Undo()
        do throws(DaemonError) {
            let context: ZMQContext
            do { context = try ZMQContext(ioThreads: 1) } catch { throw DaemonError(.systemCall, "cannot create a ZeroMQ context: \(error)", underlying: error) }
            undo.push { context.terminate() }

            // The state directory: this daemon's alone (a flock), at its modes, before anything in it is read.
            let stateLock = try configuration.stateDirectory.map { (directory) throws(DaemonError) in
                try StateDirectoryProbe.check(directory, historyFile: directory + "/" + ViolationHistory.fileName)
                let lock = try StateDirectoryLock.acquire(directory)
                try StateDirectoryModes(groupName: configuration.stateGroup).apply(to: directory, logger: logger)
                return lock
            }
            undo.push { stateLock?.release() }

            // CURVE: the authentication handler must be bound before any encrypted socket exists.
            let curveSecret = try configuration.curve.map { (curve) throws(DaemonError) in
                do { return try CurveKeyFile.read(path: curve.keyFile).secretKey } catch { throw DaemonError(.configuration, "\(error)", underlying: error) }
            }
            let zap = try configuration.curve.map { (curve) throws(DaemonError) in
                do throws(ZapHandler.Failure) { return try ZapHandler(context: context, allowedClients: curve.allowedClients, what: "curve.allowed_clients", logger: logger) } catch {
                    throw DaemonError(error.isBadKey ? .configuration : .systemCall, error.description, underlying: error)
                }
            }
            undo.push { zap?.close() }
            if configuration.curve?.allowedClients.isEmpty == true {
                logger.warning("curve is on but allowed_clients is empty: every client will be refused")
            }

            // The publishing thread owns the PUB socket and the history; it binds first.
            let handOver = HandOver()
            let publishing = try PublishingThread.start(publishingSettings(configuration, context, handOver, curveSecret, clock, logger))
            // That thread ends once the hand-over is finished.
            undo.push { handOver.finish(); publishing.join() }
            // This side of the control PAIR binds before the control thread starts: the thread
            // serves its socket at once, and a request's bell must have somewhere to go.
            let control = try socket(context, .pair, &undo)
            let controlSettings = controlSettings(configuration, context, configurationSource, clock, logger)
            do { try control.bind(controlSettings.pair) } catch {
                throw DaemonError(.systemCall, "cannot bind the control PAIR: \(error)", underlying: error)
            }
            // The control thread owns the control socket and reads the history; it binds now.
            let controlThread = try ControlThread.start(controlSettings)
            undo.push { context.shutdown(); controlThread.join() }

            // XSUB, not SUB: it filters nothing itself (publishers filter by its subscriptions), so
            // what is still on its way after a stop's unsubscription is received (IngestLoop+Shard).
            let ingest = try socket(context, .xsub, &undo)
            try configure(ingest: ingest, configuration, curveSecret: curveSecret)
            var endpoints = try bind(ingest: ingest, configuration, logger: logger)
            endpoints["publish"] = [publishing.boundEndpoint]
            endpoints["control"] = [controlThread.boundEndpoint]
            var connections: [ConnectionGuard] = []
            undo.push { connections.forEach { $0.close() } }
            let descriptors = Posix.descriptorLimit()
            do {
                try ConnectionGuard.monitor(ingest, name: "ingest")
                for (name, role, limit) in [
                    ("ingest", "events", ConnectionGuard.limit(configured: configuration.maxIngestConnections, descriptorLimit: descriptors)),
                    ("publish", "publish", ConnectionGuard.sideLimit(descriptorLimit: descriptors)),
                    ("control", "control", ConnectionGuard.sideLimit(descriptorLimit: descriptors)),
                ] {
                    connections.append(try ConnectionGuard(
                        name: name, context: context, boundEndpoints: endpoints[role] ?? [], limit: limit, logger: logger))
                }
            } catch {
                throw DaemonError(.systemCall, "cannot monitor the sockets' connections: \(error)", underlying: error)
            }

            let poller = ZMQPoller()
            let index: PollIndex
            do {
                index = PollIndex(
                    ingest: try poller.add(ingest), control: try poller.add(control),
                    wakeup: poller.add(fileDescriptor: wakeup.fileDescriptor), zap: try zap.map { try poller.add($0.socket) } ?? -1,
                    connections: try connections.map { try poller.add($0.socket) })
            } catch {
                throw DaemonError(.systemCall, "cannot poll sockets: \(error)", underlying: error)
            }

            var metrics: (exporter: MetricsExporter, server: MetricsHTTPServer)?
            if let address = configuration.metrics {
                let exporter = MetricsExporter()
                let server = try MetricsHTTPServer.start(
                    address: address, allowRemote: configuration.metricsAllowRemote, registry: exporter.registry,
                    health: DaemonHealth(store: publishing.health), logger: logger)
                endpoints["metrics"] = ["http://\(server.boundAddress)/metrics"]
                metrics = (exporter, server)
            }
            return IngestResources(
                context: context, zap: zap, publishing: publishing, ingest: ingest, handOver: handOver, control: control,
                controlThread: controlThread, poller: poller, index: index, metrics: metrics, connections: connections,
                endpoints: endpoints, stateLock: stateLock)
        } catch {
            undo.run()
            throw error
        }
    }

    /// Closes everything, the last opened first. The ingest side hands the publishing thread
    /// its last batch before (`Outbox.finish`): this finishes the hand-over (again, harmless)
    /// and waits for that thread to end.
    func close() {
        controlThread.finish(through: control)
        metrics?.server.stop()
        handOver.finish()
        publishing.join()
        zap?.close()
        connections.forEach { $0.close() }
        for socket in [ingest, control] { socket.close() }
        context.terminate()
        stateLock?.release()
    }

    private static func publishingSettings(
        _ configuration: DaemonConfiguration, _ context: ZMQContext, _ handOver: HandOver, _ curveSecret: String?,
        _ clock: DaemonClock, _ logger: Logger
    ) throws(DaemonError) -> PublishingThread.Settings {
        let history = try historyTarget(configuration)
        if case .sqlite(let path)? = history {
            // Writable (violations.md, checked in `open`) and sound (docs/RELIABILITY.md), or a one-line error at start.
            try HistoryStartCheck.prepare(path, logger: logger)
        }
        return PublishingThread.Settings(
            context: context, handOver: handOver,
            publish: configuration.publish, history: history,
            retention: .init(maxAgeMs: configuration.historyMaxAgeMs, maxRows: configuration.historyMaxRows,
                             intervalMs: configuration.historyPruneIntervalMs),
            spool: .init(memoryBytes: configuration.spoolMemoryBytes, fileBytes: configuration.spoolFileBytes),
            walLimitBytes: configuration.historyWALLimitBytes,
            curveSecretKey: configuration.curve?.publish == true ? curveSecret : nil, clock: clock, monitorConnections: true,
            logger: logger)
    }

    /// Where the history is: PostgreSQL when `history.postgresql` is set (its connection string
    /// checked here: readable, no password), else `history.sqlite` in the state directory, else none.
    static func historyTarget(_ configuration: DaemonConfiguration) throws(DaemonError) -> HistoryKeeper.Target? {
        if let conninfo = configuration.historyPostgreSQL {
            do throws(PostgresError) { try PostgresConninfo.check(conninfo, passwordAllowed: false) } catch {
                throw DaemonError(.configuration, "history.postgresql: \(error.description)")
            }
            return .postgresql(conninfo: conninfo, stateDirectory: configuration.stateDirectory)
        }
        return configuration.stateDirectory.map { .sqlite(path: $0 + "/" + ViolationHistory.fileName) }
    }

    private static func controlSettings(
        _ configuration: DaemonConfiguration, _ context: ZMQContext, _ source: @escaping IngestLoop.ConfigurationSource,
        _ clock: DaemonClock, _ logger: Logger
    ) -> ControlThread.Settings {
        ControlThread.Settings(
            context: context, control: configuration.control, configurationSource: source,
            // A state change over the network: only when the config says so (`control_allow_reload_over_tcp`).
            reloadRefused: configuration.control.hasPrefix("tcp://") && !configuration.controlAllowReloadOverTCP,
            pair: "inproc://modalwatch-control-\(UInt64.random(in: 0...UInt64.max))",
            history: try? historyTarget(configuration),
            shard: configuration.shard, shardPeers: configuration.shardPeers, clock: clock, monitorConnections: true, logger: logger)
    }

    private static func socket(_ context: ZMQContext, _ type: ZMQSocketType, _ undo: inout Undo) throws(DaemonError) -> ZMQSocket {
        do {
            let socket = try ZMQSocket(context, type: type, linger: 0)
            undo.push { socket.close() }
            return socket
        } catch {
            throw DaemonError(.systemCall, "cannot create a \(type) socket: \(error)", underlying: error)
        }
    }

    private static func configure(
        ingest: ZMQSocket, _ configuration: DaemonConfiguration, curveSecret: String?
    ) throws(DaemonError) {
        do {
            if let curveSecret, configuration.curve?.ingest == true {
                try ZapHandler.makeServer(ingest, secretKey: curveSecret)
            }
            try ingest.set(.receiveHighWaterMark, 10_000)
            try ingest.set(.maxMessageSize, EventLimits.maxSocketMessageBytes)
            try ingest.set(.handshakeInterval, ConnectionGuard.handshakeIntervalMs)
            for prefix in configuration.ingestSubscriptions { _ = try ingest.send(IngestLoop.subscription(prefix, subscribe: true)) }
        } catch {
            throw DaemonError(.systemCall, "cannot set socket options: \(error)", underlying: error)
        }
    }

    /// Binds (and connects) the ingest socket; returns the endpoints by role.
    private static func bind(
        ingest: ZMQSocket, _ configuration: DaemonConfiguration, logger: Logger
    ) throws(DaemonError) -> [String: [String]] {
        var endpoints: [String: [String]] = [:]
        var boundEvents: [String] = []
        for endpoint in configuration.events { boundEvents.append(try bind(ingest, endpoint, "events")) }
        endpoints["events"] = boundEvents
        for endpoint in configuration.eventsConnect {
            do { try ingest.connect(endpoint) } catch {
                throw DaemonError(.endpoint, "cannot connect events to \(endpoint): \(error.reason); check the endpoint (e.g. tcp://host:port)", underlying: error)
            }
        }
        endpoints["events_connect"] = configuration.eventsConnect
        return endpoints
    }

    private static func bind(_ socket: ZMQSocket, _ endpoint: String, _ role: String) throws(DaemonError) -> String {
        do {
            try socket.bind(endpoint)
            return (try? socket.lastEndpoint) ?? endpoint
        } catch {
            throw DaemonError(.endpoint, "cannot bind \(role) to \(endpoint): \(error.reason); is another modalwatchd running? choose another endpoint with --\(role)", underlying: error)
        }
    }
}

@available(*, unavailable)
extension IngestResources: Sendable {}

/// What `IngestResources.open` has to close again when a later step fails, last first.
private struct Undo {
    private var steps: [() -> Void] = []

    mutating func push(_ step: @escaping () -> Void) { steps.append(step) }

    mutating func run() {
        while let step = steps.popLast() { step() }
    }
}
