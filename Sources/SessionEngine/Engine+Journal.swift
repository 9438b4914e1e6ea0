import ModalwatchABI
import RuleHost

/// Reading the journal, and the live sessions it describes, for the control socket.
/// Runs on the engine's thread between events: everything here is bounded by the
/// journal's size or walks the sessions once, and builds snapshots only of what it returns.
extension Engine {
    /// What the journal still holds of one session.
    public struct JournalExcerpt: Sendable, Equatable {
        /// Its events, oldest first.
        public var records: [SessionJournal.Record]
        /// Whether every event of the session (this launch) is still in the journal.
        public var complete: Bool
    }

    /// The window (ms) `alerts_window` counts over for `app`: its `alert-frequency` window in force, else 10 minutes.
    public func alertWindowMs(forApp app: String?) -> Int64 {
        profile(forApp: app).rules.first { $0.descriptor.id == "alert-frequency" }?.value(of: "window") ?? 600_000
    }
}
