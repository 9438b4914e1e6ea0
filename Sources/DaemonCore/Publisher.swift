import Logging
public import SessionEngine
import ZeroMQ

/// Publishes violations and rate-limited diagnostics on the `PUB` socket
/// (violations.md). Lives on the ingest thread, like the socket it owns.
public final class Publisher: EngineOutput {
    /// Counters `status` reports.
    public struct Statistics: Sendable, Equatable {
        /// Violations sent.
        public var violationsPublished: UInt64 = 0
        /// Diagnostics sent.
        public var diagnosticsPublished: UInt64 = 0
        /// Diagnostics held back by the per-app rate limit.
        public var diagnosticsSuppressed: UInt64 = 0
        /// Messages the socket would not take.
        public var messagesDropped: UInt64 = 0
    }

    /// What was sent and dropped.
    public private(set) var statistics = Statistics()
    private let socket: ZMQSocket
    private let logger: Logger
    private var limiter = DiagnosticRateLimiter()
    private var diagnostic = JSONBuffer(capacity: 1024)
    private var topic = JSONBuffer(capacity: 256)
    private var lastSendErrorLog: Int64 = 0

    /// Publishes on `socket` (a bound `PUB`).
    init(socket: ZMQSocket, logger: Logger) {
        self.socket = socket
        self.logger = logger
    }

    /// Sends a violation: topic frame, then the JSON object.
    public func emit(_ violation: EmittedViolation) {
        if send(topic: violation.topic, payload: violation.json) {
            statistics.violationsPublished += 1
        }
    }

    /// Sends a diagnostic unless the app is over its rate.
    public func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        let now = WallClock.milliseconds()
        guard limiter.allow(app: app ?? "-", now: now) else {
            statistics.diagnosticsSuppressed = limiter.suppressed
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
        let sent = topic.withBytes { t in diagnostic.withBytes { d in send(topic: t, payload: d) } }
        if sent { statistics.diagnosticsPublished += 1 }
    }

    private func send(topic: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) -> Bool {
        do {
            guard try socket.send(topic, flags: [.more, .dontWait]) else {
                statistics.messagesDropped += 1
                return false
            }
            guard try socket.send(payload, flags: [.dontWait]) else {
                statistics.messagesDropped += 1
                return false
            }
            return true
        } catch {
            statistics.messagesDropped += 1
            let now = WallClock.monotonicMilliseconds()
            if now - lastSendErrorLog > 10_000 {
                lastSendErrorLog = now
                logger.error("publishing failed; messages are being dropped", metadata: ["error": "\(error)"])
            }
            return false
        }
    }
}
