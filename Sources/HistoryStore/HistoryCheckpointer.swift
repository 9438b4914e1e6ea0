import Foundation
import GRDB

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
// @unchecked: `stopping`, `done` and `failed` are read and written only with `wake` locked;
// `started` only by the one thread that calls `start()` and `stop()`; the rest is `let`.
public final class HistoryCheckpointer: @unchecked Sendable {
    /// Checkpoints done, and failed, so far.
    public var counts: (done: Int, failed: Int) {
        wake.lock()
        defer { wake.unlock() }
        return (done, failed)
    }

    private let path: String
    private let intervalMs: Int
    private let wake = NSCondition()
    private var stopping = false
    private let ended = DispatchSemaphore(value: 0)
    private var started = false
    private var done = 0
    private var failed = 0

    /// A checkpointer for the history file at `path`, every `intervalMs` milliseconds.
    /// Small, frequent checkpoints stall the writer least: the p99 latency to a published
    /// violation grows with the interval (50 ms, 250 ms and 1 s compared). An idle WAL costs a checkpoint nothing.
    public init(path: String, intervalMs: Int = 50) {
        self.path = path
        self.intervalMs = intervalMs
    }

    /// Opens its own connection and starts the thread.
    public func start() throws {
        var configuration = Configuration()
        configuration.label = "modalwatch.history.checkpoint"
        configuration.busyMode = .timeout(1)
        let database = try DatabaseQueue(path: path, configuration: configuration)
        let thread = Thread { [self] in
            run(database)
            ended.signal()
        }
        thread.name = "mw-checkpoint"
        started = true
        thread.start()
    }

    /// Runs a last checkpoint and ends the thread; returns when it has ended.
    public func stop() {
        wake.lock()
        stopping = true
        wake.signal()
        wake.unlock()
        if started { ended.wait() }
        started = false
    }

    private func run(_ database: DatabaseQueue) {
        while true {
            wake.lock()
            if !stopping { _ = wake.wait(until: Date(timeIntervalSinceNow: Double(intervalMs) / 1000)) }
            let last = stopping
            wake.unlock()
            let succeeded = (try? database.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }) != nil
            wake.lock()
            if succeeded { done += 1 } else { failed += 1 }
            wake.unlock()
            if last { return }
        }
    }
}
