import ControlProtocol
import HistoryStore
import Logging
import ModalwatchConfig
import RuleHost
import Posix
import SessionEngine
import ZeroMQ

/// The ingest thread's part of the control socket (docs/architecture.md, "The control socket"):
/// the control thread (`ControlServer`) reads each request and hands what needs the engine here
/// as a `ControlExchange.Job`; this answers it with the typed reply, which the control thread
/// encodes and sends. A job that reads much of the engine is done in turns of at most
/// `turnMicros`, one per loop turn: `sessions` (the journal's alerts, then the table, in slices)
/// and `session` (the journal, in slices), so no request holds ingest for long (issue 12).
/// Runs on the ingest thread, so it reads the engine without locks.
final class ControlHandler {
    /// The longest one turn of a job in slices works before ingest goes on (µs); it looks at
    /// the clock after every step (8 table slots or `Engine.journalStep` journal entries).
    static let turnMicros: Int64 = 250

    /// A job done in slices, under way.
    private enum Ongoing {
        /// A `sessions` scan.
        case sessions(Engine.SessionScan)
        /// The engine's part of `session`: the snapshot taken at its start, and the journal copy going on.
        case session(SessionSnapshot?, Engine.JournalCopying)

        var command: String {
            switch self {
            case .sessions: "sessions"
            case .session: "session"
            }
        }
    }

    private unowned let loop: IngestLoop
    private let exchange: ControlExchange
    private let pair: ZMQSocket
    /// The job under way in slices, if any.
    private var ongoing: Ongoing?
    /// The ongoing job's turns so far, and its longest (µs, wall clock and CPU) and longest step.
    private var jobTurns = 0, jobLongestMicros: Int64 = 0, jobLongestCPUMicros: Int64 = 0, jobLongestStepMicros: Int64 = 0
    /// How long control jobs held this thread, one turn at a time.
    private(set) var holds = ControlHoldTimes()

    init(loop: IngestLoop, exchange: ControlExchange, pair: ZMQSocket) {
        self.loop = loop
        self.exchange = exchange
        self.pair = pair
    }

    /// Whether a job goes on in the next turn (the loop then polls without waiting).
    var isBusy: Bool { ongoing != nil }

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
                startSession(request)
            case .sessions(let request):
                command = "sessions"
                start(.sessions(Engine.SessionScan(app: request.app)))
            }
            holds.end(command: command)
        }
    }

    /// One turn of the job under way: a slice of at most `turnMicros` (and the longest step past it).
    func continueJob() {
        guard let ongoing else { return }
        holds.begin()
        let began = Posix.monotonicMicroseconds()
        let deadline = began + Self.turnMicros
        var looked = began, longestStep: Int64 = 0
        let shouldStop = { () -> Bool in
            let now = Posix.monotonicMicroseconds()
            longestStep = max(longestStep, now - looked)
            looked = now
            return now >= deadline
        }
        let engine = loop.pipeline.engine
        switch ongoing {
        case .sessions(let scan):
            answer(.sessionsSlice(engine.continueScan(scan, shouldStop: shouldStop)))
            if scan.finished {
                answer(.sessionsEnd)
                self.ongoing = nil
            }
        case .session(let snapshot, let copying):
            if let copy = engine.continueJournalCopy(copying, shouldStop: shouldStop) {
                answer(.session(.success(SessionReplyParts(
                    snapshot: snapshot, journalCopy: copy,
                    capacity: engine.journal.capacity, recorded: Int(clamping: engine.journal.recorded), held: engine.journal.count))))
                self.ongoing = nil
            }
        }
        longestStep = max(longestStep, Posix.monotonicMicroseconds() - looked)
        let held = holds.end(command: ongoing.command)
        holds.noteStep(micros: longestStep)
        jobTurns += 1
        jobLongestMicros = max(jobLongestMicros, held)
        jobLongestCPUMicros = max(jobLongestCPUMicros, holds.lastCPUMicros)
        jobLongestStepMicros = max(jobLongestStepMicros, longestStep)
        if self.ongoing == nil {
            loop.logger.debug("control job done", metadata: [
                "cmd": "\(ongoing.command)", "turns": "\(jobTurns)", "longest_turn_us": "\(jobLongestMicros)",
                "longest_turn_cpu_us": "\(jobLongestCPUMicros)", "longest_step_us": "\(jobLongestStepMicros)",
            ])
        }
    }

    /// Starts a job done in slices.
    private func start(_ job: Ongoing) {
        ongoing = job
        jobTurns = 0
        jobLongestMicros = 0
        jobLongestCPUMicros = 0
        jobLongestStepMicros = 0
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

    /// Starts the engine's part of `session`: the live session now, and what the journal holds
    /// of it in slices. The control thread builds the reply from it and adds the session's
    /// violations from the history.
    private func startSession(_ request: SessionRequest) {
        let engine = loop.pipeline.engine
        let snapshot = engine.sessionSnapshot(id: request.id)
        guard snapshot != nil || request.ended else {
            answer(.session(.failure(ControlRefusal(
                "no live session '\(request.id)'; `modalwatch sessions` lists the live ones (add \"ended\": true for one that ended)"))))
            return
        }
        start(.session(snapshot, engine.startJournalCopy(session: request.id)))
    }
}
