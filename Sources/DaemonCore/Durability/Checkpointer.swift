import ByteBasics
import SessionEngine

/// The ingest thread's side of checkpoints: every `checkpoint_interval` it walks the live
/// sessions in slices (`Engine.checkpointSlice`) between event batches and hands each slice to
/// the `CheckpointWriter`'s thread, which encodes and writes it.
///
/// Bounded by construction: a slice takes at most `sliceBudgetUs` of the ingest thread; the
/// next slice waits `idleShare` times as long as the last one took, so that a walk costs at
/// most 1 / (1 + `idleShare`) of the ingest thread's time while it runs; and no slice is taken
/// while the writer has more than `maxPendingSessions` sessions not yet written (a slow disk
/// slows the walk, never the ingest thread). A walk of many sessions thus spans more than its
/// CPU time, and a checkpoint is due `checkpoint_interval` after the previous walk began, or
/// when the walk ends if that is later.
struct Checkpointer {
    /// The most one slice holds the ingest thread, in µs.
    static let sliceBudgetUs: Int64 = 500
    /// The most sessions in one slice.
    static let sliceSessions = 4096
    /// How many times a slice's duration the walk then leaves to the ingest thread.
    static let idleShare: Int64 = 19
    /// The writer's backlog past which no slice is taken.
    static let maxPendingSessions = 200_000

    let intervalMs: Int64
    let writer: CheckpointWriter
    private var walk: Engine.CheckpointWalk?
    /// When the next walk is due (monotonic ms).
    private var nextWalkMs: Int64
    /// When the next slice of the walk under way may be taken (monotonic µs).
    private var nextSliceUs: Int64 = 0

    init(intervalMs: Int64, writer: CheckpointWriter, nowMs: Int64) {
        self.intervalMs = intervalMs
        self.writer = writer
        nextWalkMs = nowMs + intervalMs
    }

    /// In how many ms the checkpoint wants the ingest thread again (for the poll's timeout).
    func dueInMs(nowUs: Int64) -> Int64 {
        if walk != nil { return max(0, (nextSliceUs - nowUs + 999) / 1000) }
        return max(0, nextWalkMs - nowUs / 1000)
    }

    /// Begins a walk when one is due, or takes its next slice when that is due.
    /// `wallMs` is the daemon's clock, the checkpoint's time, read only when a walk begins.
    mutating func step(_ engine: Engine, nowUs: Int64, wallMs: @autoclosure () -> Int64) {
        if walk == nil {
            guard nowUs / 1000 >= nextWalkMs else { return }
            walk = Engine.CheckpointWalk()
            nextWalkMs = nowUs / 1000 + intervalMs
            nextSliceUs = nowUs
            writer.submit(.begin(writtenAtMs: wallMs()))
        }
        guard let walk, nowUs >= nextSliceUs else { return }
        guard writer.pendingSessions <= Self.maxPendingSessions else {
            nextSliceUs = nowUs + 1000
            return
        }
        let deadlineUs = nowUs + Self.sliceBudgetUs
        let slice = engine.checkpointSlice(walk, limit: Self.sliceSessions) {
            PosixClock.monotonic.microseconds() >= deadlineUs
        }
        writer.submit(.part(slice))
        let endUs = PosixClock.monotonic.microseconds()
        nextSliceUs = endUs + (endUs - nowUs) * Self.idleShare
        if walk.finished {
            writer.submit(.end(sessions: walk.sessions))
            self.walk = nil
            nextWalkMs = max(nextWalkMs, endUs / 1000)
        }
    }
}
