import ByteBasics
import Synchronization

/// What `GET /healthz` answers: whether the ingest loop still ticks and the history takes writes.
/// The ingest loop beats on every tick; the metrics thread reads the beat and the store's health
/// (both atomic), so answering never waits for the ingest thread.
final class DaemonHealth: Sendable {
    /// How long the loop may go without a tick before `/healthz` says it is stuck: its tick is
    /// every 200 ms, a drain slice or a control job holds it far less than this.
    static let stuckAfterMs: Int64 = 10_000

    private let lastBeat: Atomic<Int64>
    private let store: StoreHealth

    /// Health read from `store`, the loop counted as alive from now.
    init(store: StoreHealth) {
        self.store = store
        lastBeat = Atomic(PosixClock.monotonic.milliseconds())
    }

    /// The ingest loop is alive now.
    func beat() {
        lastBeat.store(PosixClock.monotonic.milliseconds(), ordering: .relaxed)
    }

    /// Why the daemon is not healthy, one line, or nil when it is.
    func problem() -> String? {
        let silent = PosixClock.monotonic.milliseconds() - lastBeat.load(ordering: .relaxed)
        if silent > Self.stuckAfterMs {
            return "the ingest loop has not run for \(silent / 1000) s"
        }
        if store.state == .failing {
            let error = store.lastErrorText.map { ": \($0)" } ?? ""
            return "the history is failing\(error)"
        }
        return nil
    }
}
