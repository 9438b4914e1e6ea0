public import Logging
public import ModalwatchConfig
public import RuleHost
import Foundation
import Glibc
import HistoryStore
import SessionEngine
import ZeroMQ

/// The daemon's one hot thread: receives event messages on the `SUB` socket,
/// decodes and judges them, publishes on the `PUB` socket, and answers the
/// control `REP` socket in between. Every socket is created, used and closed
/// on this thread; other threads reach it only through `Wakeup`.
public final class IngestLoop: @unchecked Sendable {
    /// Reads the configuration again, for a reload.
    public typealias ConfigurationSource = @Sendable () throws -> DaemonConfiguration

    let configuration: DaemonConfiguration
    let catalog: RuleCatalog
    private let logger: Logger
    private let wakeup: Wakeup
    private let configurationSource: ConfigurationSource
    private let notifier: SystemdNotifier
    let startedAtMs = WallClock.milliseconds()
    let startedMonotonicMs = WallClock.monotonicMilliseconds()

    // Created on the loop's thread in run().
    private(set) var pipeline: EventPipeline!
    private(set) var outbox: Outbox!
    private(set) var publishing: PublishingThread!
    private(set) var history: ViolationHistory?
    private(set) var zap: ZapHandler?
    private var transport = TransportStatistics()
    private var rate = EventRate()
    private var boundEndpoints: [String: [String]] = [:]

    /// Reloads put in force, and refused.
    private(set) var reloads = (done: 0, refused: 0)

    var transportStatistics: TransportStatistics { transport }
    var eventsPerSecond: Double { rate.perSecond }
    var endpoints: [String: [String]] { boundEndpoints }

    /// Most bytes one ZeroMQ message may have before the socket itself refuses it and
    /// drops the sender's connection. Messages up to this size but over the wire
    /// format's 256 KiB are rejected `too_large` and counted, without losing the connection.
    public static let socketMessageLimit: Int64 = 1 << 20

    /// A loop for `configuration` and the modules of `catalog`.
    public init(
        configuration: DaemonConfiguration, catalog: RuleCatalog, wakeup: Wakeup,
        logger: Logger, notifier: SystemdNotifier, configurationSource: @escaping ConfigurationSource
    ) {
        self.notifier = notifier
        self.configuration = configuration
        self.catalog = catalog
        self.wakeup = wakeup
        self.logger = logger
        self.configurationSource = configurationSource
    }

    /// Binds every socket, calls `ready` with the endpoints bound, and runs until a stop is requested.
    public func run(ready: ([String: [String]]) -> Void) throws(DaemonError) {
        let context: ZMQContext
        do { context = try ZMQContext(ioThreads: 1) } catch { throw DaemonError(.systemCall, "cannot create a ZeroMQ context: \(error)") }
        defer { context.terminate() }
        var sockets: [ZMQSocket] = []
        defer { for socket in sockets { socket.close() } }

        // CURVE: the authentication handler must be bound before any encrypted socket exists.
        var zap: ZapHandler?
        var curveSecret: String?
        if let curve = configuration.curve {
            do {
                curveSecret = try CurveKeyFile.read(path: curve.keyFile).secretKey
            } catch {
                throw DaemonError(.configuration, error.description)
            }
            zap = try ZapHandler(context: context, allowedClients: curve.allowedClients, logger: logger)
            if curve.allowedClients.isEmpty { logger.warning("curve is on but allowed_clients is empty: every client will be refused") }
        }
        self.zap = zap
        defer { zap?.close() }

        // The publishing thread owns the PUB socket and the history; it binds first.
        let handoff = "inproc://modalwatch-publish-\(UInt64.random(in: 0...UInt64.max))"
        var historyPath: String?
        if let directory = configuration.stateDirectory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw DaemonError(.systemCall, "cannot create the state directory \(directory): \(error.localizedDescription); choose another with --state-dir")
            }
            historyPath = directory + "/" + ViolationHistory.fileName
        }
        publishing = PublishingThread(
            context: context, handoff: handoff, publish: configuration.publish, historyPath: historyPath,
            retention: .init(maxAgeMs: configuration.historyMaxAgeMs, maxRows: configuration.historyMaxRows),
            curveSecretKey: configuration.curve?.publish == true ? curveSecret : nil,
            logger: logger)
        try publishing.start()
        let publishingThread = publishing!
        defer {
            // Failed before the outbox existed (e.g. an endpoint taken): nobody will send the
            // publishing thread its stop marker, so wake it with ETERM instead.
            if outbox == nil { context.shutdown() }
            publishingThread.join()
        }
        if let historyPath { history = try? ViolationHistory(path: historyPath, readOnly: true) }

        let ingest = try open(context, .sub, &sockets)
        let handover = try open(context, .pair, &sockets)
        let control = try open(context, .rep, &sockets)
        do { try handover.connect(handoff) } catch {
            throw DaemonError(.systemCall, "cannot connect to the publishing thread: \(error)")
        }
        do {
            if let curveSecret, configuration.curve?.ingest == true {
                try ZapHandler.makeServer(ingest, secretKey: curveSecret)
            }
            try ingest.set(.receiveHighWaterMark, 10_000)
            try ingest.set(.maxMessageSize, Self.socketMessageLimit)
            for prefix in configuration.ingestSubscriptions { try ingest.subscribe(prefix) }
            try handover.set(.sendHighWaterMark, 1000)
            try control.set(.linger, 0)
        } catch {
            throw DaemonError(.systemCall, "cannot set socket options: \(error)")
        }
        var boundEvents: [String] = []
        for endpoint in configuration.events { boundEvents.append(try bind(ingest, endpoint, "events")) }
        boundEndpoints["events"] = boundEvents
        for endpoint in configuration.eventsConnect {
            do { try ingest.connect(endpoint) } catch {
                throw DaemonError(.endpoint, "cannot connect events to \(endpoint): \(error.reason); check the endpoint (e.g. tcp://host:port)")
            }
        }
        boundEndpoints["events_connect"] = configuration.eventsConnect
        boundEndpoints["publish"] = [publishingThread.boundEndpoint]
        boundEndpoints["control"] = [try bind(control, configuration.control, "control")]
        if configuration.control.hasPrefix("ipc://") {
            // Owner and group only: whoever may run `modalwatch` shares the daemon's group.
            let path = String(configuration.control.dropFirst("ipc://".count))
            if chmod(path, 0o660) != 0 {
                logger.warning("could not set mode 0660 on the control socket", metadata: ["path": "\(path)", "errno": "\(errno)"])
            }
        }

        outbox = Outbox(socket: handover, logger: logger)
        // However the loop ends, the publishing thread gets what was found and is told to finish.
        defer { outbox.finish() }
        pipeline = EventPipeline(catalog: catalog, configuration: configuration.engine, output: outbox)
        var metrics: (exporter: MetricsExporter, server: MetricsHTTPServer)?
        if let address = configuration.metrics {
            let exporter = MetricsExporter()
            let server = MetricsHTTPServer(registry: exporter.registry, logger: logger)
            try server.start(address: address)
            boundEndpoints["metrics"] = ["http://\(server.boundAddress)/metrics"]
            metrics = (exporter, server)
        }
        defer { metrics?.server.stop() }
        let snapshotFile = configuration.stateDirectory.map(SnapshotFile.init(directory:))
        if let snapshotFile { restore(from: snapshotFile) }
        let handler = ControlHandler(loop: self)

        let poller = ZMQPoller()
        let ingestIndex: Int, controlIndex: Int
        do {
            ingestIndex = try poller.add(ingest)
            controlIndex = try poller.add(control)
        } catch {
            throw DaemonError(.systemCall, "cannot poll sockets: \(error)")
        }
        let wakeIndex = poller.add(fileDescriptor: wakeup.fileDescriptor)
        var zapIndex = -1
        if let zap {
            do { zapIndex = try poller.add(zap.socket) } catch { throw DaemonError(.systemCall, "cannot poll the CURVE handler: \(error)") }
        }
        ready(boundEndpoints)
        notifier.notify("READY=1\nSTATUS=ready; no events yet")
        var lastRateSummary = WallClock.monotonicMilliseconds()
        var heldByRule: [String: UInt64] = [:]
        var lastWatchdog = WallClock.monotonicMilliseconds()
        var lastStatus = lastWatchdog

        var message = ZMQMessage()
        var frame = ZMQMessage()
        var lastTick = WallClock.monotonicMilliseconds()
        var stopping = false
        while !stopping {
            do {
                _ = try poller.poll(timeout: 200)
            } catch {
                if error.isTerminated { break }
                logger.error("poll failed", metadata: ["error": "\(error)"])
                continue
            }
            if poller.isReadable(wakeIndex) {
                let request = wakeup.take()
                if request.contains(.reload) {
                    notifier.reloading()
                    logReload(reload())
                    notifier.notify("READY=1")
                }
                if request.contains(.stop) {
                    stopping = true
                    unsubscribeAndSettle(ingest) {
                        drain(ingest, &message, &frame, stopping: false)
                        outbox.flush()
                    }
                }
            }
            if poller.isReadable(ingestIndex) || stopping {
                // On stop: take everything already received, then close.
                drain(ingest, &message, &frame, stopping: stopping)
                outbox.flush()
            }
            if poller.isReadable(controlIndex) {
                serveControl(control, handler)
            }
            if zapIndex >= 0, poller.isReadable(zapIndex) { zap?.serve() }
            let now = WallClock.monotonicMilliseconds()
            if now - lastTick >= 200 {
                let lag = Double(max(0, now - lastTick - 200)) / 1000
                lastTick = now
                if let metrics { updateMetrics(metrics.exporter, lagSeconds: lag) }
                rate.sample(total: pipeline.statistics.eventsReceived, now: now)
                pipeline.engine.releaseIdleSessions(now: WallClock.milliseconds(), limit: 10_000)
            }
            if now - lastRateSummary >= 10_000 {
                lastRateSummary = now
                let held = pipeline.engine.violationsRateLimitedByRule
                for (rule, count) in held.sorted(by: { $0.key < $1.key }) where count > heldByRule[rule] ?? 0 {
                    logger.warning("rule fired past its rate limit; violations held back (counted, not published)", metadata: [
                        "rule": "\(rule)", "held_last_10s": "\(count - (heldByRule[rule] ?? 0))", "held_total": "\(count)",
                        "limit_per_s": "\(configuration.engine.maxViolationsPerRulePerSecond)",
                    ])
                }
                heldByRule = held
            }
            // The watchdog is fed from this loop itself: a stuck loop starves it.
            if let interval = notifier.watchdogIntervalMs, now - lastWatchdog >= interval {
                lastWatchdog = now
                notifier.notify("WATCHDOG=1")
            }
            if notifier.isActive && now - lastStatus >= 2000 {
                lastStatus = now
                notifier.notify("STATUS=\(statusLine())")
            }
        }
        notifier.notify("STOPPING=1")
        if let snapshotFile {
            do {
                let snapshot = pipeline.engine.snapshot()
                try snapshotFile.write(snapshot)
                logger.info("wrote the session snapshot", metadata: ["sessions": "\(snapshot.sessionCount)", "path": "\(snapshotFile.path)"])
            } catch {
                logger.error("could not write the session snapshot; sessions start afresh next time", metadata: ["error": "\(error)"])
            }
        }
        logger.info("stopping: every received event was judged and published", metadata: [
            "events": "\(pipeline.statistics.eventsReceived)",
            "violations": "\(outbox.violationsFound)",
        ])
    }

    private func open(_ context: ZMQContext, _ type: ZMQSocketType, _ sockets: inout [ZMQSocket]) throws(DaemonError) -> ZMQSocket {
        do {
            let socket = try ZMQSocket(context, type: type, linger: 0)
            sockets.append(socket)
            return socket
        } catch {
            throw DaemonError(.systemCall, "cannot create a \(type) socket: \(error)")
        }
    }

    private func bind(_ socket: ZMQSocket, _ endpoint: String, _ role: String) throws(DaemonError) -> String {
        do {
            try socket.bind(endpoint)
            return (try? socket.lastEndpoint) ?? endpoint
        } catch {
            throw DaemonError(.endpoint, "cannot bind \(role) to \(endpoint): \(error.reason); is another modalwatchd running? choose another endpoint with --\(role)")
        }
    }

    /// The longest one drain runs before the loop serves the control socket and its timers.
    static let drainSliceMs: Int64 = 20

    /// How long a graceful stop keeps taking what was already received, at most.
    static let stopDrainMs: Int64 = 2000

    /// Receives and judges messages without blocking, for at most `drainSliceMs`, so
    /// control requests and the watchdog are never starved. When stopping: until the
    /// socket is empty, or `stopDrainMs` under a sender that does not stop.
    private func drain(_ socket: ZMQSocket, _ message: inout ZMQMessage, _ frame: inout ZMQMessage, stopping: Bool) {
        var handled = 0
        var observed = WallClock.milliseconds()
        let deadline = WallClock.monotonicMilliseconds() + (stopping ? Self.stopDrainMs : Self.drainSliceMs)
        while true {
            if handled & 15 == 15 {
                observed = WallClock.milliseconds()
                if WallClock.monotonicMilliseconds() >= deadline {
                    if stopping { logger.warning("stopped while events were still arriving; the sender goes on past the stop") }
                    return
                }
            }
            do {
                guard try socket.receive(into: &message, dontWait: true) else { return }
            } catch {
                if !error.isInterrupted && !error.isTerminated { logger.error("receive failed", metadata: ["error": "\(error)"]) }
                return
            }
            handled += 1
            transport.messagesReceived += 1
            if !message.hasMore {
                message.withBytes { pipeline.process(payload: $0, observed: observed) }
                continue
            }
            // Two frames: topic, then payload. More than two: malformed.
            do {
                guard try socket.receive(into: &frame, dontWait: true) else { continue }
            } catch {
                continue
            }
            if frame.hasMore {
                var extra = 2
                while frame.hasMore, (try? socket.receive(into: &frame, dontWait: true)) == true { extra += 1 }
                transport.messagesMalformed += 1
                pipeline.rejectMessage(.malformedJSON, detail: "a message of \(extra) frames; send one frame (payload) or two (topic, payload)")
                continue
            }
            frame.withBytes { pipeline.process(payload: $0, observed: observed) }
        }
    }

    private func serveControl(_ socket: ZMQSocket, _ handler: ControlHandler) {
        let request: ZMQMultipart?
        do {
            request = try socket.receiveMultipart(maxFrames: 1, dontWait: true)
        } catch {
            return
        }
        guard let request else { return }
        let reply = handler.reply(to: request.frames.first ?? [])
        do {
            _ = try socket.send(reply, flags: [.dontWait])
        } catch {
            logger.warning("control reply not sent", metadata: ["error": "\(error)"])
        }
    }

    private func restore(from file: SnapshotFile) {
        do {
            guard let snapshot = try file.take() else { return }
            guard snapshot.version == EngineSnapshot.currentVersion else {
                logger.warning("ignored a session snapshot of another format", metadata: ["version": "\(snapshot.version)"])
                return
            }
            let restored = pipeline.engine.restore(keepingOwnedSessions(of: snapshot, logger: logger))
            logger.notice("restored sessions from the snapshot", metadata: ["sessions": "\(restored)"])
        } catch {
            logger.error("the session snapshot could not be read; it was moved aside and sessions start afresh", metadata: ["error": "\(error)"])
        }
    }

    /// Reads the configuration again and puts its rule settings in force; sessions keep their state.
    func reload() -> Result<String, DaemonError> {
        do {
            let fresh = try configurationSource()
            if let refusal = configuration.shardChangeRefusal(to: fresh) {
                reloads.refused += 1
                return .failure(DaemonError(.configuration, refusal))
            }
            pipeline.engine.reconfigure(fresh.engine)
            reloads.done += 1
            var summary = "configuration reloaded; edition \(fresh.engine.defaultEdition.rawValue)"
            if fresh.events != configuration.events || fresh.publish != configuration.publish
                || fresh.control != configuration.control || fresh.eventsConnect != configuration.eventsConnect {
                summary += "; endpoint changes take effect after a restart"
            }
            return .success(summary)
        } catch let error as ConfigErrors {
            reloads.refused += 1
            return .failure(DaemonError(.configuration, error.errors.map(\.description).joined(separator: "; ")))
        } catch {
            reloads.refused += 1
            return .failure(DaemonError(.configuration, "\(error)"))
        }
    }

    private func logReload(_ result: Result<String, DaemonError>) {
        switch result {
        case .success(let summary): logger.notice("\(summary)")
        case .failure(let error): logger.error("reload refused; the old configuration stays in force: \(error.message)")
        }
    }
}
