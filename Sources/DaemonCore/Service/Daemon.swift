import ByteBasics
import ConnectionLimits
import CurveAuthentication
import EventDecoding
import Foundation
import Glibc
import HistoryStore
import Logging
import ModalwatchConfig
import Posix
import SessionEngine
import ZeroMQ

/// The daemon's composition root (docs/architecture.md, "Start-up"): opens the state directory
/// and takes its lock, then starts the parts as peers, each as a named step with its undo
/// (`StartSequence`): the CURVE handler, the publishing thread, the control thread, the ingest
/// socket, the metrics server and the ingest loop. A step that fails undoes the ones before it,
/// the last first, and its error names the step. It owns the stop order (`stop(_:)`).
///
/// It runs on the thread that becomes the ingest thread: the ingest socket, the control PAIR
/// and the poller are made there and never leave it.
public enum Daemon: Sendable {
    /// Starts every part for `settings` on the calling thread, calls `ready` with the endpoints
    /// bound, runs the ingest loop there until a stop is requested and everything received was
    /// judged, stored and published, then stops the parts. Throws only when the start fails.
    public static func run(_ settings: IngestLoop.Settings, ready: ([String: [String]]) -> Void) throws(DaemonError) {
        KernelThreadName.set(IngestLoop.kernelThreadName)
        let logger = settings.logger
        // Every descriptor the hard limit allows, before anything opens: libzmq takes one per connection.
        do {
            let limit = try Posix.raiseDescriptorLimit()
            logger.info("descriptor limit", metadata: ["nofile": "\(limit)"])
        } catch {
            logger.warning(
                "could not raise the descriptor limit",
                metadata: ["error": "\(error)", "nofile": "\(Posix.descriptorLimit())"]
            )
        }
        let clock = DaemonClock(source: settings.clock)
        let parts = try start(settings, clock: clock)
        // Every family and its zero series are in place, and `status` has the counters, before
        // the daemon says it is ready.
        if let metrics = parts.resources.metrics { parts.loop.declareMetricSeries(metrics.exporter) }
        parts.loop.reportCounters(lagSeconds: 0)
        ready(parts.resources.endpoints)
        parts.loop.run()
        stop(parts.resources)
    }

    /// What the start made: the handles the ingest loop works with, and the loop.
    private struct Parts {
        var resources: IngestResources
        var loop: IngestLoop
    }

    /// The start-up steps, in order; on a failure, the steps done are undone and the error names the step.
    private static func start(_ settings: IngestLoop.Settings, clock: DaemonClock) throws(DaemonError) -> Parts {
        let configuration = settings.configuration
        let logger = settings.logger
        var sequence = StartSequence(logger: logger)
        let context = try sequence.step(
            "zeromq context",
            { () throws(DaemonError) in
                do { return try ZMQContext(ioThreads: 1) } catch {
                    throw DaemonError(.systemCall, "cannot create a ZeroMQ context: \(error)", underlying: error)
                }
            },
            undo: { $0.terminate() }
        )

        // The state directory: this daemon's alone (a flock), at its modes, before anything in it is read.
        let stateLock = try sequence.step(
            "state directory",
            { () throws(DaemonError) in
                try configuration.stateDirectory.map { (directory) throws(DaemonError) in
                    try StateDirectoryProbe.check(directory, historyFile: directory + "/" + ViolationHistory.fileName)
                    let lock = try StateDirectoryLock.acquire(directory)
                    do throws(DaemonError) {
                        try StateDirectoryModes(groupName: configuration.stateGroup).apply(
                            to: directory,
                            logger: logger
                        )
                    } catch {
                        lock.release()
                        throw error
                    }
                    return lock
                }
            },
            undo: { $0?.release() }
        )

        // CURVE: the authentication handler must be bound before any encrypted socket exists.
        let curve = try sequence.step(
            "curve",
            { () throws(DaemonError) in try openCurve(configuration, context, logger) },
            undo: { $0.zap?.close() }
        )

        // The publishing thread owns the PUB socket and the history; it binds first.
        let handOver = HandOver()
        let publishing = try sequence.step(
            "publishing thread",
            { () throws(DaemonError) in
                try PublishingThread.start(
                    publishingSettings(configuration, context, handOver, curve.secret, clock, logger)
                )
            },
            undo: { publishing in
                // That thread ends once the hand-over is finished.
                handOver.finish()
                publishing.join()
            }
        )

        let control = try sequence.step(
            "control thread",
            { () throws(DaemonError) in
                try startControl(configuration, context, settings.configurationSource, clock, logger)
            },
            undo: { control in
                context.shutdown()
                control.thread.join()
                control.pair.close()
            }
        )

        let ingest = try sequence.step(
            "ingest socket",
            { () throws(DaemonError) in
                try openIngest(
                    configuration,
                    context,
                    curve.secret,
                    publishing: publishing,
                    control: control,
                    logger: logger
                )
            },
            undo: { ingest in
                ingest.connections.forEach { $0.close() }
                ingest.socket.close()
            }
        )

        let poll = try sequence.step(
            "poller",
            { () throws(DaemonError) in
                try makePoller(
                    ingest: ingest.socket,
                    control: control.pair,
                    wakeup: settings.wakeup,
                    zap: curve.zap,
                    connections: ingest.connections
                )
            }
        )

        var endpoints = ingest.endpoints
        let metrics = try sequence.step(
            "metrics server",
            { () throws(DaemonError) -> (exporter: MetricsExporter, server: MetricsHTTPServer)? in
                guard let address = configuration.metrics else { return nil }
                let exporter = MetricsExporter()
                let server = try MetricsHTTPServer.start(
                    address: address,
                    allowRemote: configuration.metricsAllowRemote,
                    registry: exporter.registry,
                    health: DaemonHealth(store: publishing.health),
                    logger: logger
                )
                return (exporter, server)
            },
            undo: { $0?.server.stop() }
        )
        if let metrics { endpoints["metrics"] = ["http://\(metrics.server.boundAddress)/metrics"] }

        let resources = IngestResources(
            context: context,
            zap: curve.zap,
            publishing: publishing,
            ingest: ingest.socket,
            handOver: handOver,
            control: control.pair,
            controlThread: control.thread,
            poller: poll.poller,
            index: poll.index,
            metrics: metrics,
            connections: ingest.connections,
            endpoints: endpoints,
            stateLock: stateLock
        )
        let loop = try sequence.step(
            "ingest loop",
            { () throws(DaemonError) in
                IngestLoop(settings, resources, clock: clock, controlAnswers: controlAnswers(logger: logger))
            }
        )
        return Parts(resources: resources, loop: loop)
    }

    /// What the control handler answers with: the loop's engine, its `rules` reply and its
    /// reload, nothing else of it. The loop owns the handler, so the handler's closures hold the
    /// loop unowned.
    private static func controlAnswers(logger: Logger) -> (IngestLoop) -> ControlAnswers {
        { loop in
            ControlAnswers(
                engine: loop.pipeline.engine,
                logger: logger,
                rules: { [unowned loop] in loop.rulesReport() },
                reload: { [unowned loop] in loop.reload($0) }
            )
        }
    }

    /// Stops every part, the last started first. The ingest loop has handed the publishing thread
    /// its last batch (`Outbox.finish`): this finishes the hand-over (again, harmless) and waits
    /// for that thread to end, then releases the state directory.
    private static func stop(_ resources: IngestResources) {
        resources.controlThread.finish(through: resources.control)
        resources.metrics?.server.stop()
        resources.handOver.finish()
        resources.publishing.join()
        resources.zap?.close()
        resources.connections.forEach { $0.close() }
        for socket in [resources.ingest, resources.control] { socket.close() }
        resources.context.terminate()
        resources.stateLock?.release()
    }

    /// The CURVE key and authentication handler, both nil without `curve:`.
    private static func openCurve(
        _ configuration: DaemonConfiguration,
        _ context: ZMQContext,
        _ logger: Logger
    ) throws(DaemonError) -> (secret: String?, zap: ZapHandler?) {
        let curveSecret = try configuration.curve.map { (curve) throws(DaemonError) in
            do { return try CurveKeyFile.read(path: curve.keyFile).secretKey } catch {
                throw DaemonError(.configuration, "\(error)", underlying: error)
            }
        }
        let zap = try configuration.curve.map { (curve) throws(DaemonError) in
            do throws(ZapHandler.Failure) {
                return try ZapHandler(
                    context: context,
                    allowedClients: curve.allowedClients,
                    what: "curve.allowed_clients",
                    logger: logger
                )
            } catch {
                throw DaemonError(error.isBadKey ? .configuration : .systemCall, error.description, underlying: error)
            }
        }
        if configuration.curve?.allowedClients.isEmpty == true {
            logger.warning("curve is on but allowed_clients is empty: every client will be refused")
        }
        return (curveSecret, zap)
    }

    private static func publishingSettings(
        _ configuration: DaemonConfiguration,
        _ context: ZMQContext,
        _ handOver: HandOver,
        _ curveSecret: String?,
        _ clock: DaemonClock,
        _ logger: Logger
    ) throws(DaemonError) -> PublishingThread.Settings {
        let history = try configuration.historyTarget()
        if case .sqlite(let path)? = history {
            // Writable (violations.md, checked in the state directory step) and sound (docs/RELIABILITY.md), or a one-line error at start.
            try HistoryStartCheck.prepare(path, clock: clock, logger: logger)
        }
        return PublishingThread.Settings(
            context: context,
            handOver: handOver,
            publish: configuration.publish,
            history: history,
            retention: .init(
                maxAgeMs: configuration.historyMaxAgeMs,
                maxRows: configuration.historyMaxRows,
                intervalMs: configuration.historyPruneIntervalMs
            ),
            spool: .init(memoryBytes: configuration.spoolMemoryBytes, fileBytes: configuration.spoolFileBytes),
            walLimitBytes: configuration.historyWALLimitBytes,
            curveSecretKey: configuration.curve?.publish == true ? curveSecret : nil,
            clock: clock,
            monitorConnections: true,
            logger: logger
        )
    }

    /// The ingest side's control PAIR, bound, and the control thread, started.
    private static func startControl(
        _ configuration: DaemonConfiguration,
        _ context: ZMQContext,
        _ source: @escaping IngestLoop.ConfigurationSource,
        _ clock: DaemonClock,
        _ logger: Logger
    ) throws(DaemonError) -> (pair: ZMQSocket, thread: ControlThread) {
        let settings = ControlThread.Settings(
            context: context,
            control: configuration.control,
            configurationSource: source,
            // A state change over the network: only when the config says so (`control_allow_reload_over_tcp`).
            reloadRefused: configuration.control.hasPrefix("tcp://") && !configuration.controlAllowReloadOverTCP,
            pair: "inproc://modalwatch-control-\(UInt64.random(in: 0...UInt64.max))",
            history: try? configuration.historyTarget(),
            shard: configuration.shard,
            shardPeers: configuration.shardPeers,
            clock: clock,
            monitorConnections: true,
            logger: logger
        )
        // This side of the control PAIR binds before the control thread starts: the thread
        // serves its socket at once, and a request's bell must have somewhere to go.
        let pair = try socket(context, .pair)
        do throws(DaemonError) {
            do { try pair.bind(settings.pair) } catch {
                throw DaemonError(.systemCall, "cannot bind the control PAIR: \(error)", underlying: error)
            }
            // The control thread owns the control socket and reads the history; it binds now.
            return (pair, try ControlThread.start(settings))
        } catch {
            pair.close()
            throw error
        }
    }

    /// The ingest `XSUB`, configured and bound, and the connection guards of the ingest, publish
    /// and control sockets, in that order.
    private static func openIngest(
        _ configuration: DaemonConfiguration,
        _ context: ZMQContext,
        _ curveSecret: String?,
        publishing: PublishingThread,
        control: (pair: ZMQSocket, thread: ControlThread),
        logger: Logger
    ) throws(DaemonError) -> (socket: ZMQSocket, connections: [ConnectionGuard], endpoints: [String: [String]]) {
        // XSUB, not SUB: it filters nothing itself (publishers filter by its subscriptions), so
        // what is still on its way after a stop's unsubscription is received (IngestLoop+Shard).
        let ingest = try socket(context, .xsub)
        var connections: [ConnectionGuard] = []
        do throws(DaemonError) {
            try configure(ingest: ingest, configuration, curveSecret: curveSecret)
            var endpoints = try bind(ingest: ingest, configuration, logger: logger)
            endpoints["publish"] = [publishing.boundEndpoint]
            endpoints["control"] = [control.thread.boundEndpoint]
            let descriptors = Posix.descriptorLimit()
            do {
                try ConnectionGuard.monitor(ingest, name: "ingest")
                for (name, role, limit) in [
                    (
                        "ingest", "events",
                        ConnectionGuard.limit(
                            configured: configuration.maxIngestConnections,
                            descriptorLimit: descriptors
                        )
                    ),
                    ("publish", "publish", ConnectionGuard.sideLimit(descriptorLimit: descriptors)),
                    ("control", "control", ConnectionGuard.sideLimit(descriptorLimit: descriptors)),
                ] {
                    connections.append(
                        try ConnectionGuard(
                            name: name,
                            context: context,
                            boundEndpoints: endpoints[role] ?? [],
                            limit: limit,
                            logger: logger
                        )
                    )
                }
            } catch {
                throw DaemonError(.systemCall, "cannot monitor the sockets' connections: \(error)", underlying: error)
            }
            return (ingest, connections, endpoints)
        } catch {
            connections.forEach { $0.close() }
            ingest.close()
            throw error
        }
    }

    /// The poller over the ingest socket, the control PAIR, the wake-up, the CURVE handler and the
    /// connection monitors, and where each sits in it.
    private static func makePoller(
        ingest: ZMQSocket,
        control: ZMQSocket,
        wakeup: Wakeup,
        zap: ZapHandler?,
        connections: [ConnectionGuard]
    ) throws(DaemonError) -> (poller: ZMQPoller, index: IngestResources.PollIndex) {
        let poller = ZMQPoller()
        do {
            let index = IngestResources.PollIndex(
                ingest: try poller.add(ingest),
                control: try poller.add(control),
                wakeup: poller.add(fileDescriptor: wakeup.fileDescriptor),
                zap: try zap.map { try poller.add($0.socket) } ?? -1,
                connections: try connections.map { try poller.add($0.socket) }
            )
            return (poller, index)
        } catch {
            throw DaemonError(.systemCall, "cannot poll sockets: \(error)", underlying: error)
        }
    }

    private static func socket(_ context: ZMQContext, _ type: ZMQSocketType) throws(DaemonError) -> ZMQSocket {
        do {
            return try ZMQSocket(context, type: type, linger: 0)
        } catch {
            throw DaemonError(.systemCall, "cannot create a \(type) socket: \(error)", underlying: error)
        }
    }

    private static func configure(
        ingest: ZMQSocket,
        _ configuration: DaemonConfiguration,
        curveSecret: String?
    ) throws(DaemonError) {
        do {
            if let curveSecret, configuration.curve?.ingest == true {
                try ZapHandler.makeServer(ingest, secretKey: curveSecret)
            }
            try ingest.set(.receiveHighWaterMark, 10_000)
            try ingest.set(.maxMessageSize, EventLimits.maxSocketMessageBytes)
            try ingest.set(.handshakeInterval, ConnectionGuard.handshakeIntervalMs)
            for prefix in configuration.ingestSubscriptions {
                _ = try ingest.send(IngestLoop.subscription(prefix, subscribe: true))
            }
        } catch {
            throw DaemonError(.systemCall, "cannot set socket options: \(error)", underlying: error)
        }
    }

    /// Binds (and connects) the ingest socket; returns the endpoints by role.
    private static func bind(
        ingest: ZMQSocket,
        _ configuration: DaemonConfiguration,
        logger: Logger
    ) throws(DaemonError) -> [String: [String]] {
        var endpoints: [String: [String]] = [:]
        var boundEvents: [String] = []
        for endpoint in configuration.events { boundEvents.append(try bind(ingest, endpoint, "events")) }
        endpoints["events"] = boundEvents
        for endpoint in configuration.eventsConnect {
            do { try ingest.connect(endpoint) } catch {
                throw DaemonError(
                    .endpoint,
                    "cannot connect events to \(endpoint): \(error.reason); check the endpoint (e.g. tcp://host:port)",
                    underlying: error
                )
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
            throw DaemonError(
                .endpoint,
                "cannot bind \(role) to \(endpoint): \(error.reason); is another modalwatchd running? choose another endpoint with --\(role)",
                underlying: error
            )
        }
    }
}
