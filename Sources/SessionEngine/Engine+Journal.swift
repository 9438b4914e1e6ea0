import ModalwatchABI

/// Reading the journal of recent events, for the control socket.
extension Engine {
    /// What the journal still holds of one session.
    public struct JournalExcerpt: Sendable, Equatable {
        /// Its events, oldest first.
        public var records: [SessionJournal.Record]
        /// Whether every event of the session (this launch) is still in the journal.
        public var complete: Bool
    }

    /// The events of the session `id` still in the journal: the live session's current
    /// launch, or, for a session no longer live, the launch of its newest entry.
    public func journalExcerpt(session id: String) -> JournalExcerpt {
        var id = id
        return id.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            let hash = Hashing.fnv1a(bytes)
            let live = table.find(bytes, hash: hash)
            let entries = journal.entries(id: bytes, hash: hash, startedTs: live?.startedTs)
            let records = entries.reversed().map(SessionJournal.record(of:))
            let complete = records.first?.type == "session.start"
                || (live.map { UInt64(records.count) >= $0.events } ?? false)
            return JournalExcerpt(records: records, complete: complete)
        }
    }

    /// The window (ms) `alerts_window` counts over for `app`: its `alert-frequency` window in force, else 10 minutes.
    public func alertWindowMs(forApp app: String?) -> Int64 {
        profile(forApp: app).rules.first { $0.descriptor.id == "alert-frequency" }?.value(of: "window") ?? 600_000
    }

    /// For each live session with alerts in the journal: the alerts it presented within its
    /// app's alert window before its latest event. A lower bound once the journal has wrapped.
    public func recentAlertCounts() -> [String: Int] {
        var alerts: [UInt64: [SessionJournal.Entry]] = [:]
        journal.forEachEntry { entry in
            if UInt32(entry.type) == MW_EVENT_ALERT_PRESENTED.rawValue {
                alerts[entry.sessionHash, default: []].append(entry)
            }
        }
        guard !alerts.isEmpty else { return [:] }
        var windows: [String: Int64] = [:]
        var counts: [String: Int] = [:]
        for session in table.allSessions() {
            guard let times = alerts[session.idHash] else { continue }
            let app = session.app.name
            let window = windows[app] ?? alertWindowMs(forApp: app)
            windows[app] = window
            let since = session.lastTs &- window
            let count = times.lazy.filter {
                $0.sessionStartedTs == session.startedTs && $0.ts > since && $0.session.matches(session.id.buffer)
            }.count
            if count > 0 { counts[session.id.string] = count }
        }
        return counts
    }
}
