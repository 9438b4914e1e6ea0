import Synchronization

/// How the history store is doing, for `status` and the metrics: written by the
/// publishing thread, read by the ingest thread.
final class StoreHealth: Sendable {
    /// The store's state.
    enum State: UInt8, Sendable {
        /// No history is kept (no state directory).
        case none = 0
        /// Writes commit.
        case ok = 1
        /// Writes fail; violations are published and spooled.
        case failing = 2

        /// The name `status` gives it.
        var name: String {
            switch self {
            case .none: "none"
            case .ok: "ok"
            case .failing: "failing"
            }
        }
    }

    private let rawState = Atomic<UInt8>(State.none.rawValue)
    /// Violations in the spool now (not yet stored).
    let spooled = Atomic<UInt64>(0)
    /// Bytes of the spool in memory, and in the spill file.
    let spoolMemoryBytes = Atomic<UInt64>(0)
    let spoolFileBytes = Atomic<UInt64>(0)
    /// Violations lost past the spool's bound (`violations_unstored`).
    let unstored = Atomic<UInt64>(0)
    /// Violations written from the spool after the store recovered.
    let recovered = Atomic<UInt64>(0)
    /// Damaged records of the spill file skipped (each also counted in `unstored`).
    let spoolDamaged = Atomic<UInt64>(0)
    /// The history's WAL file, bytes, as last measured (about once a second).
    let walBytes = Atomic<UInt64>(0)
    /// Times the store went from ok to failing.
    let outages = Atomic<UInt64>(0)
    private let lastError = Mutex<String?>(nil)

    /// The state now.
    var state: State {
        get { State(rawValue: rawState.load(ordering: .acquiring)) ?? .none }
        set { rawState.store(newValue.rawValue, ordering: .releasing) }
    }

    /// The last write error, one line, or nil.
    var lastErrorText: String? {
        get { lastError.withLock { $0 } }
        set { lastError.withLock { $0 = newValue } }
    }
}
