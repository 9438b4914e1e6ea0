import ByteBasics
import Glibc
import Logging
import RuleHost
import SessionEngine

/// The engine's output on the ingest thread: packs violations and rate-limited
/// diagnostics into a batch, and offers the batch to the publishing thread's
/// `HandOver` at the end of each drain slice.
final class Outbox: ViolationWritingOutput {
    /// Diagnostics held back by the per-app rate limit (violations.md: at most 10 a second per app).
    private(set) var diagnosticsSuppressed: UInt64 = 0
    /// Violations handed over.
    private(set) var violationsFound: UInt64 = 0
    /// Violations and diagnostics dropped because the publishing thread was `maxPendingBytes` behind.
    private(set) var handoverDropped: UInt64 = 0
    /// Whether a batch waits because the hand-over was full at the last flush.
    var hasPending: Bool { pending && !batch.isEmpty }
    /// The most bytes a batch waiting for the hand-over may hold; past it records are dropped and counted.
    static let maxPendingBytes = 64 << 20
    /// Violations by rule and severity, for the metrics.
    var violationsByRule: [ViolationCounts.RuleSeverity: UInt64] { counts.byRule }
    /// Counts keyed by the rule's seed mixed with the severity: a cheap key on the hot path.
    private var counts = ViolationCounts()
    private let handOver: HandOver
    private let logger: Logger
    /// The daemon's clock: a diagnostic's `observed`.
    private let clock: DaemonClock
    /// For each reason: when it was last logged (monotonic ms) and how many went unlogged since.
    private var logged: [DiagnosticReason: (at: Int64, held: Int)] = [:]
    /// At most one log line per reason in this many ms (events.md: "logged at a limited rate").
    static let logIntervalMs: Int64 = 10_000
    private var batch = OutboundBatch()
    private var limiter = DiagnosticRateLimiter()
    private var diagnostic = DiagnosticMessage()
    /// The hand-over was full at the last flush: the batch grows until a flush gets through.
    private var pending = false
    /// A batch this large is flushed at once (grows by a MiB while the hand-over stays full).
    private var flushAtBytes = 1 << 20
    private var lastDropLogMs: Int64 = .min / 2

    /// Hands batches over to `handOver`; logs rejections to `logger`, rate-limited.
    init(handOver: HandOver, clock: DaemonClock, logger: Logger) {
        self.clock = clock
        self.handOver = handOver
        self.logger = logger
    }

    /// Whether anything waits to be handed over.
    var hasRecords: Bool { !batch.isEmpty }

    func emit(_ violation: EmittedViolation) {
        emit(violation) { $0.raw(violation.json) }
    }

    func emit(_ violation: EmittedViolation, writingJSON write: (inout JSONBuffer) -> Void) {
        violationsFound += 1
        counts.add(violation.ruleSeed ^ violation.severity.hashSalt) {
            ViolationCounts.RuleSeverity(rule: violation.rule, severity: violation.severity.name)
        }
        guard batch.count < Self.maxPendingBytes else { return dropped() }
        batch.appendViolation(violation, writingJSON: write)
        if batch.count >= flushAtBytes { flush() }
    }

    /// One record the hand-over could not take: counted, logged at most once per `logIntervalMs`.
    private func dropped() {
        handoverDropped += 1
        let now = PosixClock.monotonic.milliseconds()
        guard now - lastDropLogMs >= Self.logIntervalMs else { return }
        lastDropLogMs = now
        logger.error(
            "the publishing thread is too far behind; violations and diagnostics are dropped (counted as handover_dropped)",
            metadata: [
                "pending_bytes": "\(batch.count)", "dropped_total": "\(handoverDropped)",
            ]
        )
    }

    func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        log(reason, app: app, session: session, detail: detail)
        guard batch.count < Self.maxPendingBytes else { return dropped() }
        let now = clock.milliseconds()
        guard limiter.allow(app: app ?? "-", now: now) else {
            diagnosticsSuppressed = limiter.suppressed
            return
        }
        diagnostic.write(reason, app: app, session: session, detail: detail(), observed: now)
        diagnostic.withBytes { topic, payload in batch.appendDiagnostic(topic: topic, payload: payload) }
    }

    private func log(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        let now = PosixClock.monotonic.milliseconds()
        if let last = logged[reason], now - last.at < Self.logIntervalMs {
            logged[reason] = (last.at, last.held + 1)
            return
        }
        let held = logged[reason]?.held ?? 0
        logged[reason] = (now, 0)
        var metadata: Logger.Metadata = [
            "reason": "\(reason.rawValue)", "app": "\(app ?? "-")", "session": "\(session ?? "-")",
            "detail": "\(detail())",
        ]
        if held > 0 { metadata["more_since_last_line"] = "\(held)" }
        logger.notice("stream problem", metadata: metadata)
    }

    /// Hands what was found so far to the publishing thread, never waiting: when the hand-over
    /// is full (that thread is its `limitBytes` behind), the batch stays and grows, and the next
    /// flush (the loop tries each turn while `hasPending`) hands it over whole.
    func flush() {
        guard !batch.isEmpty else { return }
        guard batch.withBytes({ handOver.offer($0) }) else {
            pending = true
            flushAtBytes = batch.count + (1 << 20)
            return
        }
        pending = false
        flushAtBytes = 1 << 20
        batch.reset()
    }

    /// Tells the publishing thread that nothing more will come: the last batch (waiting for room
    /// if need be: the publishing thread's store waits are bounded, `stop_timeout` bounds the
    /// rest), then `finish`.
    func finish() {
        flush()
        while pending, !handOver.isFinished {
            usleep(1_000)
            flush()
        }
        handOver.finish()
    }
}

extension Severity {
    /// Mixed into a rule's seed to count by rule and severity under one integer key.
    fileprivate var hashSalt: UInt64 {
        switch self {
        case .info: 0x1111_1111_0000_0001
        case .warning: 0x2222_2222_0000_0002
        case .error: 0x4444_4444_0000_0004
        }
    }
}
