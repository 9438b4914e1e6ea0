import ByteBasics
import ConnectionLimits
import CurveAuthentication
import EventDecoding
import Foundation
import HistoryStore
public import Logging
public import ModalwatchConfig
import Posix
public import RuleHost
import SessionEngine
import ZeroMQ

/// The daemon's one hot thread: receives event messages on the `SUB` socket,
/// decodes and judges them, hands what it finds to the publishing thread, and
/// does the control thread's engine jobs in between, in bounded turns (`ControlHandler`).
///
/// The loop is made on its thread by `Daemon.run(_:ready:)` and never leaves it (it is not
/// `Sendable`): only `Settings` cross over, and other threads reach the loop only
/// through `Wakeup`. Its life is a small state machine (`State`): `Daemon` starts every
/// part, then `running` → `draining` → `stopping` → `stopped`, one step per phase; see
/// docs/architecture.md.
public final class IngestLoop {
    /// Reads the configuration again, for a reload.
    public typealias ConfigurationSource = @Sendable () throws -> DaemonConfiguration

    /// What the loop is made from: plain values that may cross to its thread.
    public struct Settings: Sendable {
        /// The configuration in force at the start.
        public var configuration: DaemonConfiguration
        /// The loaded rule modules.
        public var catalog: RuleCatalog
        /// Where other threads ask the loop to stop or reload.
        public var wakeup: Wakeup
        /// The daemon's logger.
        public var logger: Logger
        /// systemd's notify socket (inactive outside systemd).
        public var notifier: SystemdNotifier
        /// Reads the configuration again, for a reload.
        public var configurationSource: ConfigurationSource
        /// Ends the process when a graceful stop takes longer than `stop_timeout` (docs/RELIABILITY.md).
        public var stopDeadline = StopDeadline()
        /// Where the daemon's clock (`DaemonClock`) reads the time: the machine's clocks, or a test's.
        public var clock: any DaemonClock.Source = DaemonClock.MachineSource()

        /// Settings for a loop.
        public init(
            configuration: DaemonConfiguration,
            catalog: RuleCatalog,
            wakeup: Wakeup,
            logger: Logger,
            notifier: SystemdNotifier,
            configurationSource: @escaping ConfigurationSource
        ) {
            self.configuration = configuration
            self.catalog = catalog
            self.wakeup = wakeup
            self.logger = logger
            self.notifier = notifier
            self.configurationSource = configurationSource
        }
    }

    /// The phases of the loop's life, after `Daemon`'s start-up steps.
    private enum State {
        /// Polling the sockets and the wake-up; draining received events in slices
        /// between control requests and timers.
        case running
        /// A stop was asked: taking everything already received (at most `stopDrainMs`).
        case draining
        /// Everything received is judged: snapshot written, the rest handed over, `finish` said.
        case stopping
        /// Done; `Daemon` stops the parts.
        case stopped
    }

    /// The longest one drain runs before the loop serves the control socket and its timers.
    static let drainSliceMs: Int64 = 20
    /// The same while a control job goes on in turns (a `sessions` scan): it then gets 0.5 ms of every ~5.5.
    static let drainSliceBusyMs: Int64 = 5
    /// The calling thread's name in the kernel (`top -H`, `perf sched`) while it runs the loop.
    static let kernelThreadName = "mw-ingest"
    /// Within a drain slice, what was found is handed over at least this often.
    static let handOverEveryUs: Int64 = 500
    /// How long a graceful stop keeps taking what was already received, at most.
    static let stopDrainMs: Int64 = 2000
    /// How often the loop's timers run (rates, metrics, idle sessions), in ms.
    static let tickMs: Int64 = 200
    /// How soon a batch the full hand-over refused is offered again, in ms.
    static let pendingRetryMs = 5

    let configuration: DaemonConfiguration
    let catalog: RuleCatalog
    /// When the loop started, on the daemon's clock (ms since the epoch).
    let startedAtMs: Int64
    let startedMonotonicMs = PosixClock.monotonic.milliseconds()
    /// Arrival times, idle release: the wall clock that never steps forward (`DaemonClock`).
    let clock: DaemonClock
    let pipeline: EventPipeline
    let outbox: Outbox
    private let resources: IngestResources
    let logger: Logger
    /// The rule-call marker, quarantine and watchdog (docs/RELIABILITY.md, "Module faults").
    let faultGuard: RuleFaultGuard
    private let watchdog: RuleWatchdog?
    /// Notices a loaded module file replaced on disk.
    let moduleWatch: ModuleFileWatch
    private let wakeup: Wakeup
    private let notifier: SystemdNotifier
    private let configurationSource: ConfigurationSource
    private let checkpointFile: CheckpointFile?
    /// The checkpoint's folder and temporary file, opened at the start: a stop writes the
    /// last checkpoint even when every other descriptor is taken.
    private var checkpointReservation: ReservedFile?
    /// When the last turn of the loop ended (monotonic µs).
    private var turnEndUs: Int64 = 0
    /// The checkpoints while the loop runs (with a state directory).
    private(set) var checkpointer: Checkpointer?
    /// When the checkpoint restored at the start began its walk (the daemon's clock, ms), nil for none.
    private(set) var restoredCheckpointAtMs: Int64?
    private var state = State.running
    private var transport = TransportStatistics()
    private var rate = EventRate()
    private var timers: Timers
    private var message = ZMQMessage()
    private var frame = ZMQMessage()
    /// The control thread's engine jobs, done on this thread.
    private lazy var control = ControlHandler(
        answers: makeControlAnswers(self),
        exchange: resources.controlThread.exchange,
        pair: resources.control
    )
    /// What the control handler answers with, given by `Daemon`.
    private let makeControlAnswers: (IngestLoop) -> ControlAnswers
    /// Control requests answered (by the control thread, or with this thread's help).
    var controlRequests: Int { resources.controlThread.exchange.requestsAnswered }
    /// Where the loop publishes its counters for `status`.
    var counterSnapshot: CounterSnapshot { resources.controlThread.exchange.counters }
    /// How long control requests held this thread.
    var controlHolds: ControlHoldTimes { control.holds }
    /// Reloads put in force, and refused.
    private(set) var reloads = (done: 0, refused: 0)

    var publishing: PublishingThread { resources.publishing }
    var zap: ZapHandler? { resources.zap }
    var transportStatistics: TransportStatistics { transport }
    var eventsPerSecond: Double { rate.perSecond }
    var endpoints: [String: [String]] { resources.endpoints }
    var ingestConnections: ConnectionGuard { resources.connections[0] }
    /// The publish and control sockets' connection guards.
    var sideConnections: ArraySlice<ConnectionGuard> { resources.connections.dropFirst() }

    /// A loop over the parts `Daemon` started, on the calling thread (which it then never leaves):
    /// restores the newest checkpoint and starts the rule watchdog, the module file watch and
    /// the checkpoint writer. `controlAnswers` gives the control handler what it answers with.
    init(
        _ settings: Settings,
        _ resources: IngestResources,
        clock: DaemonClock,
        controlAnswers: @escaping (IngestLoop) -> ControlAnswers
    ) {
        self.clock = clock
        startedAtMs = clock.milliseconds()
        makeControlAnswers = controlAnswers
        configuration = settings.configuration
        catalog = settings.catalog
        logger = settings.logger
        wakeup = settings.wakeup
        notifier = settings.notifier
        configurationSource = settings.configurationSource
        self.resources = resources
        outbox = Outbox(handOver: resources.handOver, clock: clock, logger: logger)
        let faultGuard = RuleFaultGuard(
            directory: settings.configuration.stateDirectory,
            catalog: settings.catalog,
            quarantineEnabled: settings.configuration.quarantineEnabled,
            clock: clock,
            logger: settings.logger
        )
        self.faultGuard = faultGuard
        var engineConfiguration = settings.configuration.engine
        engineConfiguration.quarantined = faultGuard.engineQuarantine
        pipeline = EventPipeline(catalog: settings.catalog, configuration: engineConfiguration, output: outbox)
        pipeline.engine.useMarker(faultGuard.marker)
        settings.stopDeadline.watch(faultGuard)
        watchdog = settings.configuration.ruleCallTimeoutMs.map {
            RuleWatchdog(guardian: faultGuard, limitMs: $0, logger: settings.logger)
        }
        watchdog?.start()
        moduleWatch = ModuleFileWatch(catalog: settings.catalog, logger: settings.logger)
        moduleWatch.start()
        checkpointFile = configuration.stateDirectory.map(CheckpointFile.init(directory:))
        timers = Timers(now: PosixClock.monotonic.milliseconds())
        if let checkpointFile {
            restore(from: checkpointFile)
            do {
                checkpointReservation = try checkpointFile.reserve()
            } catch {
                logger.warning(
                    "could not open the session checkpoint's file ahead; it is opened at the stop",
                    metadata: ["error": "\(error)"]
                )
            }
            let writer = CheckpointWriter(file: checkpointFile, logger: logger)
            writer.start()
            checkpointer = Checkpointer(
                intervalMs: configuration.checkpointIntervalMs,
                writer: writer,
                nowMs: PosixClock.monotonic.milliseconds()
            )
        }
    }

    /// Steps through the phases until `stopped`; `Daemon` then stops the parts.
    func run() {
        tell("READY=1\nSTATUS=ready; no events yet")
        while true {
            switch state {
            case .running: state = poll()
            case .draining:
                // Producers stop sending here first (and count what they then cannot deliver).
                unsubscribeAndSettle(resources.ingest) {
                    drain(stopping: false)
                    outbox.flush()
                }
                drain(stopping: true)
                outbox.flush()
                state = .stopping
            case .stopping:
                stop()
                state = .stopped
            case .stopped: return
            }
        }
    }

    /// `running`: one poll, then whatever became readable, then the timers.
    private func poll() -> State {
        let index = resources.index
        do {
            // A control job under way goes on in the next turn: no waiting then. A batch waiting for
            // room in the hand-over is tried again soon.
            _ = try resources.poller.poll(
                timeout: control.isBusy ? 0 : outbox.hasPending ? Self.pendingRetryMs : pollTimeoutMs()
            )
        } catch {
            if error.isTerminated { return .stopping }
            logger.error("poll failed", metadata: ["error": "\(error)"])
            return .running
        }
        if resources.poller.isReadable(index.wakeup) {
            let request = wakeup.take()
            if request.contains(.reload) { reloadOnRequest() }
            if request.contains(.stop) { return .draining }
        }
        if resources.poller.isReadable(index.ingest) {
            drain(stopping: false)
            outbox.flush()
        }
        if outbox.hasPending { outbox.flush() }
        if resources.poller.isReadable(index.control) { control.serveJobs() }
        control.continueJob()
        if index.zap >= 0, resources.poller.isReadable(index.zap) { resources.zap?.serve() }
        for (item, guarded) in zip(index.connections, resources.connections) where resources.poller.isReadable(item) {
            guarded.serve()
        }
        // One clock read a turn, for the checkpoint's slice, the timers and the next poll's timeout.
        let nowUs = PosixClock.monotonic.microseconds()
        turnEndUs = nowUs
        checkpointer?.step(pipeline.engine, nowUs: nowUs, wallMs: clock.milliseconds())
        runTimers(now: nowUs / 1000)
        return .running
    }

    /// How long a poll may wait when nothing is pending: until the next tick, or sooner when a
    /// checkpoint's next slice is due (from the end of the last turn).
    private func pollTimeoutMs() -> Int {
        guard let checkpointer else { return Int(Self.tickMs) }
        return Int(min(Self.tickMs, checkpointer.dueInMs(nowUs: turnEndUs)))
    }

    /// `stopping`: tells systemd, writes the last checkpoint, hands the rest over and says `finish`.
    private func stop() {
        tell("STOPPING=1")
        if let checkpointFile {
            // A walk under way is abandoned: the last checkpoint replaces what it would have written.
            checkpointer?.writer.stop()
            checkpointer = nil
            do {
                let snapshot = pipeline.engine.snapshot()
                let bytes = try checkpointFile.write(
                    snapshot,
                    writtenAtMs: clock.milliseconds(),
                    into: checkpointReservation
                )
                checkpointReservation = nil
                logger.info(
                    "wrote the last session checkpoint",
                    metadata: [
                        "sessions": "\(snapshot.sessionCount)", "bytes": "\(bytes)", "path": "\(checkpointFile.path)",
                    ]
                )
            } catch {
                logger.error(
                    "could not write the last session checkpoint; the next start restores the one before",
                    metadata: ["error": "\(error)"]
                )
            }
        }
        logger.info(
            "stopping: every received event was judged and published",
            metadata: [
                "events": "\(pipeline.statistics.eventsReceived)",
                "violations": "\(outbox.violationsFound)",
            ]
        )
        watchdog?.stop()
        moduleWatch.stop()
        outbox.finish()
        publishStatus(counters())
    }

    /// Receives and judges messages without blocking, for at most `drainSliceMs`, so
    /// control requests and the watchdog are never starved. When stopping: until the
    /// socket is empty, or `stopDrainMs` under a sender that does not stop.
    private func drain(stopping: Bool) {
        let socket = resources.ingest
        var handled = 0
        var observed = clock.milliseconds()
        let startUs = PosixClock.monotonic.microseconds()
        let deadline =
            startUs / 1000 + (stopping ? Self.stopDrainMs : control.isBusy ? Self.drainSliceBusyMs : Self.drainSliceMs)
        var handOverUs = startUs + Self.handOverEveryUs
        while true {
            if handled & 15 == 15 {
                observed = clock.milliseconds()
                let nowUs = PosixClock.monotonic.microseconds()
                if nowUs / 1000 >= deadline {
                    if stopping {
                        logger.warning("stopped while events were still arriving; the sender goes on past the stop")
                    }
                    return
                }
                // A long slice hands over what it found as it goes: the publishing thread
                // stores and publishes on the other core meanwhile.
                if nowUs >= handOverUs, outbox.hasRecords {
                    outbox.flush()
                    handOverUs = nowUs + Self.handOverEveryUs
                }
            }
            do {
                guard try socket.receive(into: &message, dontWait: true) else { return }
            } catch {
                if !error.isInterrupted && !error.isTerminated {
                    logger.error("receive failed", metadata: ["error": "\(error)"])
                }
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
                pipeline.rejectMessage(
                    .malformedJSON,
                    detail: "a message of \(extra) frames; send one frame (payload) or two (topic, payload)"
                )
                continue
            }
            if message.count > EventLimits.maxTopicBytes {
                transport.topicsTooLarge += 1
                pipeline.rejectMessage(
                    .tooLarge,
                    detail: "a topic frame of \(message.count) bytes; the limit is \(EventLimits.maxTopicBytes)"
                )
                continue
            }
            frame.withBytes { pipeline.process(payload: $0, observed: observed) }
        }
    }

    /// When each periodic job last ran (monotonic ms), and the held-back counts last logged.
    private struct Timers {
        var tick: Int64
        var rateSummary: Int64
        var watchdog: Int64
        var status: Int64
        var heldByRule: [String: UInt64] = [:]

        init(now: Int64) {
            tick = now
            rateSummary = now
            watchdog = now
            status = now
        }
    }

    /// The periodic jobs, each when due at `now` (monotonic ms): rates, metrics and idle sessions
    /// every tick; the rate-limit summary every 10 s; systemd's watchdog and status line.
    private func runTimers(now: Int64) {
        if now - timers.tick >= Self.tickMs {
            let lag = Double(max(0, now - timers.tick - Self.tickMs)) / 1000
            timers.tick = now
            rate.sample(total: pipeline.statistics.eventsReceived, now: now)
            pipeline.engine.releaseIdleSessions(now: clock.milliseconds(), limit: 10_000)
            reportCounters(lagSeconds: lag)
            resources.metrics?.server.health.beat()
        }
        if now - timers.rateSummary >= 10_000 {
            timers.rateSummary = now
            logHeldBack()
        }
        // The watchdog is fed from this loop itself: a stuck loop starves it.
        if let interval = notifier.watchdogIntervalMs, now - timers.watchdog >= interval {
            timers.watchdog = now
            tell("WATCHDOG=1")
        }
        if notifier.isActive && now - timers.status >= 2000 {
            timers.status = now
            tell("STATUS=\(statusLine())")
        }
    }

    /// Reads the counters once and brings both their readers up to them: the `status` snapshot
    /// (`CounterSnapshot`) and, when served, the Prometheus metrics. `lagSeconds`: how late the
    /// tick that asks is.
    func reportCounters(lagSeconds: Double) {
        let counters = counters()
        if let metrics = resources.metrics { updateMetrics(metrics.exporter, counters, lagSeconds: lagSeconds) }
        publishStatus(counters)
    }

    /// Sends `state` to systemd; a failure is logged and the loop goes on.
    private func tell(_ state: String) {
        do {
            try notifier.notify(state)
        } catch {
            logger.warning("systemd notification not sent", metadata: ["state": "\(state)", "error": "\(error)"])
        }
    }

    /// One warning per rule that held violations back since the last summary.
    private func logHeldBack() {
        let held = pipeline.engine.violationsRateLimitedByRule
        for (rule, count) in held.sorted(by: { $0.key < $1.key }) where count > timers.heldByRule[rule] ?? 0 {
            logger.warning(
                "rule fired past its rate limit in an app; violations held back (counted, not published)",
                metadata: [
                    "rule": "\(rule)", "held_last_10s": "\(count - (timers.heldByRule[rule] ?? 0))",
                    "held_total": "\(count)",
                    "limit_per_s_per_app": "\(configuration.engine.maxViolationsPerRulePerSecond)",
                    "apps_most_held":
                        "\(pipeline.engine.violationsRateLimitedByApp.sorted { $0.value > $1.value }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))",
                ]
            )
        }
        timers.heldByRule = held
    }

    /// Puts the newest checkpoint's sessions back, and says how old it is and what it could not restore.
    private func restore(from file: CheckpointFile) {
        do {
            let startedUs = PosixClock.monotonic.microseconds()
            guard let found = try file.read() else { return }
            let owned = keepingOwnedSessions(of: found.snapshot, logger: logger)
            let restored = pipeline.engine.restore(owned)
            restoredCheckpointAtMs = found.writtenAtMs
            let ageMs = max(0, clock.milliseconds() - found.writtenAtMs)
            logger.notice(
                "restored sessions from the newest checkpoint",
                metadata: [
                    "sessions": "\(restored)", "not_restored": "\(owned.sessionCount - restored)",
                    "checkpoint_age_s": "\(String(format: "%.1f", Double(ageMs) / 1000))", "path": "\(found.path)",
                    "took_ms": "\((PosixClock.monotonic.microseconds() - startedUs) / 1000)",
                ]
            )
        } catch {
            logger.error(
                "the session checkpoint could not be read; it was moved aside and sessions start afresh",
                metadata: ["error": "\(error)"]
            )
        }
    }

    /// A reload asked through the wake-up (SIGHUP), with the configuration the asker read off this
    /// thread: systemd hears of it, the log says how it went.
    private func reloadOnRequest() {
        do { try notifier.reloading() } catch {
            logger.warning("systemd notification not sent", metadata: ["state": "RELOADING=1", "error": "\(error)"])
        }
        switch reload(wakeup.takeReadForReload() ?? Self.readConfiguration(configurationSource)) {
        case .success(let summary): logger.notice("configuration reloaded", metadata: ["summary": "\(summary)"])
        case .failure(let error):
            logger.error(
                "reload refused; the old configuration stays in force",
                metadata: ["error": "\(error.message)"]
            )
        }
        tell("READY=1")
    }

    /// Reads the configuration again and puts its rule settings in force; sessions keep their state.
    func reload() -> Result<String, DaemonError> {
        reload(Self.readConfiguration(configurationSource))
    }

    /// Reads the configuration (on any thread: the control thread reads it for `reload`).
    public static func readConfiguration(_ source: ConfigurationSource) -> Result<DaemonConfiguration, DaemonError> {
        do {
            return .success(try source())
        } catch let error as ConfigErrors {
            return .failure(
                DaemonError(.configuration, error.errors.map(\.description).joined(separator: "; "), underlying: error)
            )
        } catch {
            return .failure(DaemonError(.configuration, "\(error)", underlying: error))
        }
    }

    /// Puts the rule settings of a configuration read again in force; sessions keep their state.
    func reload(_ read: Result<DaemonConfiguration, DaemonError>) -> Result<String, DaemonError> {
        // `status` says at once what the reload did.
        defer { publishStatus(counters()) }
        do throws(DaemonError) {
            let fresh = try read.get()
            if let refusal = configuration.shardChangeRefusal(to: fresh) {
                reloads.refused += 1
                return .failure(DaemonError(.configuration, refusal))
            }
            faultGuard.clearQuarantine()
            moduleWatch.check()
            pipeline.engine.reconfigure(fresh.engine)
            reloads.done += 1
            var summary = "configuration reloaded; edition \(fresh.engine.defaultEdition.name)"
            let waiting = configuration.restartOnlyChanges(to: fresh)
            if !waiting.isEmpty {
                summary += "; these settings take effect after a restart: " + waiting.joined(separator: ", ")
                logger.warning(
                    "a reload does not put every changed setting in force; restart the daemon for these",
                    metadata: [
                        "settings": "\(waiting.joined(separator: ", "))"
                    ]
                )
            }
            return .success(summary)
        } catch {
            reloads.refused += 1
            return .failure(error)
        }
    }
}

@available(*, unavailable)
extension IngestLoop: Sendable {}
