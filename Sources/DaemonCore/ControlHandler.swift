import ControlProtocol
import HistoryStore
import ModalwatchConfig
import RuleHost
import Posix
import SessionEngine
import ZeroMQ

/// The ingest thread's part of the control socket (docs/architecture.md, "The control socket"):
/// the control thread (`ControlServer`) reads each request and hands what needs the engine here
/// as a `ControlExchange.Job`; this answers it with the typed reply, which the control thread
/// encodes and sends. A job is done in turns of at most `turnMicros` (`sessions` is read in
/// slices, one per loop turn), so no request holds ingest for long (issue 12).
/// Runs on the ingest thread, so it reads the engine without locks.
final class ControlHandler {
    /// The longest one turn of a `sessions` scan works before ingest goes on (µs).
    static let turnMicros: Int64 = 500

    private unowned let loop: IngestLoop
    private let exchange: ControlExchange
    private let pair: ZMQSocket
    /// The `sessions` scan under way, if any.
    private var scan: Engine.SessionScan?
    /// How long control jobs held this thread, one turn at a time.
    private(set) var holds = ControlHoldTimes()

    init(loop: IngestLoop, exchange: ControlExchange, pair: ZMQSocket) {
        self.loop = loop
        self.exchange = exchange
        self.pair = pair
    }

    /// Whether a job goes on in the next turn (the loop then polls without waiting).
    var isBusy: Bool { scan != nil }

    /// Reads the bells on the PAIR and starts (or does) every job posted.
    func serveJobs() {
        while (try? pair.receiveFrame(dontWait: true)) != nil {}
        for job in exchange.takeJobs() {
            holds.begin()
            let command: String
            switch job {
            case .status:
                command = "status"
                answer(.status(loop.statusReport()))
            case .rules:
                command = "rules"
                answer(.rules(loop.rulesReport()))
            case .reload(let read):
                command = "reload"
                answer(.reload(Result { () throws(ControlRefusal) in try reload(read) }))
            case .session(let request):
                command = "session"
                answer(.session(Result { () throws(ControlRefusal) in try session(request) }))
            case .sessions(let request):
                command = "sessions"
                scan = Engine.SessionScan(app: request.app)
            }
            holds.end(command: command)
        }
    }

    /// One turn of the job under way: a slice of the `sessions` scan, at most `turnMicros`.
    func continueJob() {
        guard let scan else { return }
        holds.begin()
        let deadline = Posix.monotonicMicroseconds() + Self.turnMicros
        answer(.sessionsSlice(loop.pipeline.engine.continueScan(scan) { Posix.monotonicMicroseconds() >= deadline }))
        if scan.finished {
            answer(.sessionsEnd)
            self.scan = nil
        }
        holds.end(command: "sessions")
    }

    /// Posts an answer and rings the control thread.
    private func answer(_ answer: ControlExchange.Answer) {
        exchange.post(answer)
        // A bell lost to a full queue is no loss: the control thread looks at the exchange every 100 ms.
        _ = try? pair.send([ControlExchange.Bell.posted.rawValue], flags: [.dontWait])
    }

    // MARK: - Commands

    private func reload(_ read: Result<DaemonConfiguration, DaemonError>) throws(ControlRefusal) -> ReloadReply {
        switch loop.reload(read) {
        case .success(let summary): return ReloadReply(summary: summary)
        case .failure(let failure): throw ControlRefusal("reload refused: \(failure.description); the old configuration stays in force")
        }
    }

    /// The engine's part of `session`: the live session and what the journal holds of it. The
    /// control thread builds the reply from it and adds the session's violations from the history.
    private func session(_ request: SessionRequest) throws(ControlRefusal) -> SessionReplyParts {
        let id = request.id
        let engine = loop.pipeline.engine
        let snapshot = engine.sessionSnapshot(id: id)
        guard snapshot != nil || request.ended else {
            throw ControlRefusal("no live session '\(id)'; `modalwatch sessions` lists the live ones (add \"ended\": true for one that ended)")
        }
        return SessionReplyParts(
            snapshot: snapshot, journalCopy: engine.journalCopy(session: id),
            capacity: engine.journal.capacity, recorded: Int(clamping: engine.journal.recorded), held: engine.journal.count)
    }
}
