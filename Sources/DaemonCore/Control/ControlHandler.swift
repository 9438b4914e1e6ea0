import ByteBasics
import ControlProtocol
import Glibc
import HistoryStore
import Logging
import ModalwatchConfig
import RuleHost
import SessionEngine
import ZeroMQ

/// The ingest thread's part of the control socket (docs/architecture.md, "The control socket"):
/// the control thread (`ControlServer`) reads each request and hands what needs the engine here
/// as a `ControlExchange.Job`; this answers it with the typed reply, which the control thread
/// encodes and sends. A job that reads much of the engine is done in turns of at most
/// `turnMicros`, one per loop turn: `sessions` (the journal's alerts, then the table, in slices)
/// and `session` (the journal, in slices), so no request holds ingest for long.
/// Runs on the ingest thread, so it reads the engine without locks.
final class ControlHandler {
    /// The longest one turn of a job in slices works before ingest goes on (µs); it looks at
    /// the clock after every step (8 table slots or `Engine.journalStep` journal entries).
    static let turnMicros: Int64 = 250

    /// The most `sessions` slices one turn makes (~100 KB): the memory a turn fills comes fresh
    /// from the kernel after the heap was trimmed, and each page's fault costs the turn µs.
    static let slicesPerTurn = 8

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

    /// A job's turns so far, its longest (µs, wall clock and CPU), its steps between two looks at
    /// the clock, and its longest step in a turn the scheduler did not interrupt.
    private struct JobTally {
        var turns = 0, steps = 0, slowSteps = 0
        var longestMicros: Int64 = 0, longestCPUMicros: Int64 = 0, longestStepMicros: Int64 = 0
    }

    /// What the handler answers with, from the composition root.
    private let answers: ControlAnswers
    private let exchange: ControlExchange
    private let pair: ZMQSocket
    /// The job under way in slices, if any.
    private var ongoing: Ongoing?
    /// What the ongoing job's turns did, for the debug line at its end.
    private var tally = JobTally()
    /// How long control jobs held this thread, one turn at a time.
    private(set) var holds = ControlHoldTimes()

    init(answers: ControlAnswers, exchange: ControlExchange, pair: ZMQSocket) {
        self.answers = answers
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
            case .rules:
                command = "rules"
                answer(.rules(answers.rules()))
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
        let faultsBefore = Self.minorFaults()
        holds.begin()
        let began = PosixClock.monotonic.microseconds()
        let deadline = began + Self.turnMicros
        var looked = began
        var longestStep: Int64 = 0
        var checks = 0
        var slowSteps = 0
        let shouldStop = { () -> Bool in
            let now = PosixClock.monotonic.microseconds()
            checks += 1
            if now - looked > 100 { slowSteps += 1 }
            longestStep = max(longestStep, now - looked)
            looked = now
            return now >= deadline
        }
        let engine = answers.engine
        switch ongoing {
        case .sessions(let scan):
            // Slices of a bounded size (`Engine.scanSlice`), as many as the turn has time and memory
            // for; one bell.
            var slices = 0
            repeat {
                exchange.post(.sessionsSlice(engine.continueScan(scan, shouldStop: shouldStop)))
                slices += 1
            } while !scan.finished && slices < Self.slicesPerTurn && PosixClock.monotonic.microseconds() < deadline
            if scan.finished {
                exchange.post(.sessionsEnd)
                self.ongoing = nil
            }
            ring()
        case .session(let snapshot, let copying):
            if let copy = engine.continueJournalCopy(copying, shouldStop: shouldStop) {
                answer(
                    .session(
                        .success(
                            SessionReplyParts(
                                snapshot: snapshot,
                                journalCopy: copy,
                                capacity: engine.journal.capacity,
                                recorded: Int(clamping: engine.journal.recorded),
                                held: engine.journal.count
                            )
                        )
                    )
                )
                self.ongoing = nil
            }
        }
        longestStep = max(longestStep, PosixClock.monotonic.microseconds() - looked)
        let held = holds.end(command: ongoing.command)
        let faults = Self.minorFaults() - faultsBefore
        if holds.lastCPUMicros > 2 * Self.turnMicros {
            answers.logger.debug(
                "control turn over its slice",
                metadata: [
                    "cmd": "\(ongoing.command)", "turn": "\(tally.turns)", "cpu_us": "\(holds.lastCPUMicros)",
                    "wall_us": "\(held)",
                    "longest_step_us": "\(longestStep)", "minor_faults": "\(faults)", "clock_checks": "\(checks)",
                ]
            )
        }
        tally.turns += 1
        tally.steps += checks
        tally.slowSteps += slowSteps
        tally.longestMicros = max(tally.longestMicros, held)
        tally.longestCPUMicros = max(tally.longestCPUMicros, holds.lastCPUMicros)
        // A step's wall clock is its work only when the scheduler did not take the thread away
        // meanwhile: counted from turns whose wall clock is their CPU time, within 20 µs.
        if held - holds.lastCPUMicros <= 20 { tally.longestStepMicros = max(tally.longestStepMicros, longestStep) }
        if self.ongoing == nil {
            answers.logger.debug(
                "control job done",
                metadata: [
                    "cmd": "\(ongoing.command)", "turns": "\(tally.turns)", "longest_turn_us": "\(tally.longestMicros)",
                    "longest_turn_cpu_us": "\(tally.longestCPUMicros)", "longest_step_us": "\(tally.longestStepMicros)",
                    "steps": "\(tally.steps)", "steps_over_100us": "\(tally.slowSteps)",
                ]
            )
        }
    }

    /// The calling thread's minor page faults so far.
    private static func minorFaults() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD (not imported into Swift)
        return usage.ru_minflt
    }

    /// Starts a job done in slices.
    private func start(_ job: Ongoing) {
        ongoing = job
        tally = JobTally()
    }

    /// Posts an answer and rings the control thread.
    private func answer(_ answer: ControlExchange.Answer) {
        exchange.post(answer)
        ring()
    }

    /// Rings the control thread: answers wait in the exchange.
    private func ring() {
        // A bell lost to a full queue is no loss: the control thread looks at the exchange every 100 ms.
        _ = try? pair.send([ControlExchange.Bell.posted.rawValue], flags: [.dontWait])
    }

    // MARK: - Commands

    private func reload(_ read: Result<DaemonConfiguration, DaemonError>) throws(ControlRefusal) -> ReloadReply {
        // Logged as SIGHUP's reload is, so the journal holds the reason whoever asked.
        switch answers.reload(read) {
        case .success(let summary):
            answers.logger.notice("configuration reloaded", metadata: ["summary": "\(summary)", "asked": "control"])
            return ReloadReply(summary: summary)
        case .failure(let failure):
            answers.logger.error(
                "reload refused; the old configuration stays in force",
                metadata: ["error": "\(failure.message)", "asked": "control"]
            )
            throw ControlRefusal("reload refused: \(failure.description); the old configuration stays in force")
        }
    }

    /// Starts the engine's part of `session`: the live session now, and what the journal holds
    /// of it in slices. The control thread builds the reply from it and adds the session's
    /// violations from the history.
    private func startSession(_ request: SessionRequest) {
        let engine = answers.engine
        let snapshot = engine.sessionSnapshot(id: request.id)
        guard snapshot != nil || request.ended else {
            answer(
                .session(
                    .failure(
                        ControlRefusal(
                            "no live session '\(request.id)'; `modalwatch sessions` lists the live ones (add \"ended\": true for one that ended)"
                        )
                    )
                )
            )
            return
        }
        start(.session(snapshot, engine.startJournalCopy(session: request.id)))
    }
}
