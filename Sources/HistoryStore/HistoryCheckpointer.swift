import ByteBasics
import Foundation
import GRDB
import Synchronization

/// Moves the history's WAL into the database file on a thread of its own, so that
/// the thread that stores and publishes violations never waits for a checkpoint.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses the threshold:
/// it copies the whole WAL and syncs the database file (tens to hundreds of ms),
/// and every violation waiting to be published waits with it. Here the writer's
/// connection runs with `wal_autocheckpoint = 0` (see `ViolationHistory`'s
/// `checkpointsElsewhere`), and this thread runs PASSIVE checkpoints on its own
/// connection: they never block the writer, and once one has copied every frame,
/// the writer's next commit starts the WAL over from its beginning.
///
/// Under a steady flow of small commits no PASSIVE checkpoint copies every frame (a commit
/// lands while it runs), so the WAL would only grow, and the writer would pay for its size
/// later (a file of hundreds of MiB truncated, or `history.wal_limit` reached). So when the
/// WAL holds more than `restartFrames` frames after a PASSIVE checkpoint, a RESTART follows
/// at once: it waits for the commit under way, copies the few frames that came meanwhile and
/// syncs, holding the writer off for that short while, and the writer's next commit starts
/// the WAL over. The database file and the WAL are written out to the disk just before,
/// holding no lock, so that the RESTART's own syncs have only those few frames to write
/// (without this, its sync of the database file took up to ~10 ms on a virtual disk). The
/// WAL so stays about `restartFrames` frames long, and its file is reused, never truncated
/// by the writer.
///
/// The thread runs at the daemon's priority: a nicer one, starved by other processes, lets
/// the WAL grow for as long as they run (`testASteadyFlowOfSmallCommitsKeepsTheWALShort`
/// measured 3.8 MB, past its 2 MB bound, beside three busy processes), and it measured no
/// gain in latency.
///
/// Sendable: its counts and flags are in a `Mutex`; the thread sleeps on a semaphore that
/// `stop()` signals; the rest is `let`.
public final class HistoryCheckpointer: Sendable {
    /// Checkpoints done, and failed, so far.
    public var counts: (done: Int, failed: Int) {
        state.withLock { ($0.done, $0.failed) }
    }
    /// RESTART checkpoints done so far (each one let the writer start the WAL over).
    public var restarts: Int {
        state.withLock { $0.restarted }
    }

    private let path: String
    private let intervalMs: Int
    private let restartFrames: Int
    private let state = Mutex(State())
    /// Signalled by `stop()`: ends the thread's sleep between checkpoints.
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    private struct State {
        var stopping = false
        /// `start()` started the thread and no `stop()` has waited for it yet.
        var started = false
        var done = 0
        var failed = 0
        var restarted = 0
    }

    /// A checkpointer for the history file at `path`, every `intervalMs` milliseconds.
    /// Small, frequent checkpoints stall the writer least: the p99 latency to a published
    /// violation grows with the interval (50 ms, 250 ms and 1 s compared). An idle WAL costs a checkpoint nothing.
    /// A WAL longer than `restartFrames` frames after a PASSIVE checkpoint is started over
    /// with a RESTART checkpoint (8,192 frames: 32 MiB of 4 KiB pages; at the latency run's
    /// rates one RESTART every few seconds).
    public init(path: String, intervalMs: Int = 50, restartFrames: Int = 8192) {
        self.path = path
        self.intervalMs = intervalMs
        self.restartFrames = restartFrames
    }

    /// The longest a RESTART checkpoint waits for the writer's commit under way, and then
    /// (holding the writer off) for readers of older frames.
    static let restartWaitMicroseconds = 10_000
    private static let restartPollMicroseconds = 50
    /// The thread's name, in the kernel too.
    public static let threadName = "mw-checkpoint"

    /// Opens its own connection and starts the thread.
    public func start() throws {
        var configuration = Configuration()
        configuration.label = "modalwatch.history.checkpoint"
        // PASSIVE never waits. RESTART waits for the commit under way, then holds the writer off
        // while it waits for readers of older frames: never more than this, then it tries next time.
        // A busy timeout sleeps in steps of milliseconds and would rarely meet the gap between two
        // commits; this polls every `restartPollMicroseconds`.
        let polls = Self.restartWaitMicroseconds / Self.restartPollMicroseconds
        configuration.busyMode = .callback { tries in
            guard tries < polls else { return false }
            usleep(UInt32(Self.restartPollMicroseconds))
            return true
        }
        let database = try DatabaseQueue(path: path, configuration: configuration)
        let thread = Thread { [self] in
            KernelThreadName.set(Self.threadName)
            run(database)
            ended.signal()
        }
        thread.name = Self.threadName
        state.withLock { $0.started = true }
        thread.start()
    }

    /// Runs a last checkpoint and ends the thread; returns when it has ended.
    public func stop() {
        let started = state.withLock { state in
            state.stopping = true
            defer { state.started = false }
            return state.started
        }
        wake.signal()
        if started { ended.wait() }
    }

    /// Writes the database file's and the WAL's pages out to the disk (`fdatasync` on
    /// descriptors of its own), holding no lock of SQLite's: the PASSIVE checkpoint just
    /// copied most of the WAL into the database file without syncing it.
    private func syncToDisk() {
        for file in [path, path + "-wal"] {
            let descriptor = open(file, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            _ = fdatasync(descriptor)
            close(descriptor)
        }
    }

    private func run(_ database: DatabaseQueue) {
        // The WAL's length when the last RESTART went through: until the writer's next commit
        // starts the WAL over it stays so, and a RESTART again would only sync for nothing.
        var restartedAt = -1
        while true {
            if !state.withLock({ $0.stopping }) {
                _ = wake.wait(timeout: .now() + .milliseconds(intervalMs))
            }
            let last = state.withLock { $0.stopping }
            let outcome = try? database.writeWithoutTransaction { db -> Bool in
                let (frames, checkpointed) = try db.checkpoint(.passive)
                guard frames > restartFrames, !(frames == restartedAt && checkpointed == frames) else { return false }
                // The RESTART holds the writer off while it syncs the WAL and the database file;
                // written out here first, they leave it only the frames of the last few commits.
                syncToDisk()
                // Busy (the writer or a reader held on past the wait): the next turn tries again.
                guard (try? db.checkpoint(.restart)) != nil else { return false }
                restartedAt = frames
                return true
            }
            state.withLock { state in
                if let outcome {
                    state.done += 1
                    if outcome { state.restarted += 1 }
                } else {
                    state.failed += 1
                }
            }
            if last { return }
        }
    }
}
