import SessionEngine
import ZeroMQ

/// The engine's output on the ingest thread: packs violations and rate-limited
/// diagnostics into a batch, and hands the batch to the publishing thread over
/// an `inproc` PAIR socket at the end of each drain slice.
final class Outbox: EngineOutput {
    /// Diagnostics held back by the per-app rate limit (violations.md: at most 10 a second per app).
    private(set) var diagnosticsSuppressed: UInt64 = 0
    /// Violations handed over.
    private(set) var violationsFound: UInt64 = 0
    /// Violations by rule and severity, for the metrics.
    private(set) var violationsByRule: [RuleSeverity: UInt64] = [:]

    /// A rule and the severity it fired with.
    struct RuleSeverity: Hashable {
        let rule: String
        let severity: String
    }
    private let socket: ZMQSocket
    private var batch = OutboundBatch()
    private var limiter = DiagnosticRateLimiter()
    private var diagnostic = JSONBuffer(capacity: 1024)
    private var topic = JSONBuffer(capacity: 256)

    /// Hands batches over on `socket` (the ingest side of the PAIR).
    init(socket: ZMQSocket) {
        self.socket = socket
    }

    func emit(_ violation: EmittedViolation) {
        batch.appendViolation(violation)
        violationsFound += 1
        violationsByRule[RuleSeverity(rule: violation.rule, severity: violation.severity.rawValue), default: 0] += 1
        if batch.bytes.count >= 1 << 20 { flush() }
    }

    func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        let now = WallClock.milliseconds()
        guard limiter.allow(app: app ?? "-", now: now) else {
            diagnosticsSuppressed = limiter.suppressed
            return
        }
        topic.reset()
        topic.raw("diag/")
        topic.text(app ?? "-")
        topic.byte(0x2F)
        topic.text(reason.rawValue)
        diagnostic.reset()
        diagnostic.raw("{\"v\":1,\"reason\":")
        diagnostic.string(reason.rawValue)
        diagnostic.raw(",\"app\":")
        if let app { diagnostic.string(app) } else { diagnostic.raw("null") }
        diagnostic.raw(",\"session\":")
        if let session { diagnostic.string(session) } else { diagnostic.raw("null") }
        diagnostic.raw(",\"detail\":")
        diagnostic.string(detail())
        diagnostic.raw(",\"observed\":")
        diagnostic.integer(now)
        diagnostic.byte(0x7D)
        topic.withBytes { t in diagnostic.withBytes { d in batch.appendDiagnostic(topic: t, payload: d) } }
    }

    /// Hands what was found so far to the publishing thread. Blocks only if that
    /// thread is a thousand batches behind (a stalled disk): the history comes first.
    func flush() {
        guard !batch.isEmpty else { return }
        do {
            _ = try batch.bytes.withUnsafeBytes { try socket.send($0) }
        } catch {
            // The context is shutting down; nothing more can be handed over.
        }
        batch.reset()
    }

    /// Tells the publishing thread that nothing more will come.
    func finish() {
        flush()
        _ = try? socket.send([UInt8]())
    }
}
