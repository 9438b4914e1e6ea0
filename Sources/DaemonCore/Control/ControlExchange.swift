import ControlProtocol
import ModalwatchConfig
import SessionEngine
import Synchronization

/// What the control thread and the ingest thread hand each other (docs/architecture.md, "The
/// control socket"): the control thread posts a `Job` for what needs the engine, the ingest
/// thread posts `Answer`s back, and each side rings the other on their inproc PAIR with a
/// one-byte `Bell`. The values go through the two queues here; the PAIR frames only wake the
/// other side's poll. `status` needs no job: the ingest thread publishes its counters in
/// `counters` and the control thread answers from them. `@unchecked` is not needed: every
/// stored property is a `Mutex`, an `Atomic` or the `Sendable` `CounterSnapshot`.
final class ControlExchange: Sendable {
    /// A request that needs the engine's state, so the ingest thread answers it.
    enum Job: Sendable {
        case rules
        /// Puts a configuration read again (by the control thread) in force.
        case reload(Result<DaemonConfiguration, DaemonError>)
        /// The engine's part of `session`: the live session and the journal (the history's part is the control thread's).
        case session(SessionRequest)
        /// The live sessions, read in slices (`Engine.continueScan`).
        case sessions(SessionsRequest)
    }

    /// The ingest thread's answer to a `Job`; `sessions` comes as slices, then its end.
    /// `indirect`: each answer is one pointer in the queue. Inline, an answer is as large as
    /// its largest case, and while the control thread ranks, hundreds of
    /// slices wait: appending one would move the whole queue to fresh pages on the ingest
    /// thread (page faults that make a turn overrun its slice).
    indirect enum Answer: Sendable {
        case rules(RulesReply)
        case reload(Result<ReloadReply, ControlRefusal>)
        case session(Result<SessionReplyParts, ControlRefusal>)
        /// Some of the sessions; more follow until `sessionsEnd`.
        case sessionsSlice(Engine.ScanSlice)
        /// Every slot was visited.
        case sessionsEnd
    }

    /// The one-byte frames on the PAIR between the two threads.
    enum Bell: UInt8 {
        /// A job or an answer waits in the exchange.
        case posted = 1
        /// The ingest side closes: the control thread closes its sockets and ends.
        case finish = 2
    }

    /// The ingest loop's latest counters, which `status` is answered from.
    let counters = CounterSnapshot()
    private let jobs = Mutex<[Job]>([])
    private let answers = Mutex<[Answer]>([])
    private let answered = Atomic<Int>(0)

    /// Control requests answered (by the control thread, with the ingest thread's help or not), for `status`.
    var requestsAnswered: Int { answered.load(ordering: .relaxed) }

    /// Counts a request answered.
    func noteAnswered() { answered.add(1, ordering: .relaxed) }

    /// Posts a job for the ingest thread.
    func post(_ job: Job) { jobs.withLock { $0.append(job) } }

    /// Takes every job posted, oldest first.
    func takeJobs() -> [Job] {
        jobs.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
    }

    /// Posts an answer for the control thread.
    func post(_ answer: Answer) { answers.withLock { $0.append(answer) } }

    /// Takes every answer posted, oldest first.
    func takeAnswers() -> [Answer] {
        answers.withLock { answers in
            defer { answers.removeAll() }
            return answers
        }
    }
}
