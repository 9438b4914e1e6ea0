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

    /// How `sessions` orders the live sessions.
    public enum SessionOrder: String, Sendable, CaseIterable {
        /// Most recently active first.
        case recent
        /// Alerts within the alert window (from the journal), then alerts in all.
        case alerts
        /// Modal depth now, then the deepest it has been.
        case depth
        /// Violations found.
        case violations
        /// Events judged.
        case events
    }

    /// Some live sessions, chosen and ordered.
    public struct SessionListing: Sendable, Equatable {
        /// Live sessions that matched the app filter.
        public var total: Int
        /// The first `limit` of them in the order asked.
        public var sessions: [SessionSnapshot]
        /// For each listed session with alerts in its window: how many (by session id).
        public var recentAlerts: [String: Int]
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

    /// The live sessions of `app` (all apps when nil), in `order`, at most `limit` of them.
    public func sessionListing(app: String?, order: SessionOrder, limit: Int) -> SessionListing {
        var sessions = table.allSessions()
        if let app { sessions = sessions.filter { $0.app.name == app } }
        let alerts = recentAlertCounts()
        func recent(_ session: Session) -> Int { alerts[ObjectIdentifier(session)] ?? 0 }
        switch order {
        case .recent: break
        case .alerts: sessions.sort { (recent($0), $0.alertsPresented) > (recent($1), $1.alertsPresented) }
        case .depth: sessions.sort { ($0.modalDepth, $0.maxModalDepth) > ($1.modalDepth, $1.maxModalDepth) }
        case .violations: sessions.sort { $0.violations > $1.violations }
        case .events: sessions.sort { $0.events > $1.events }
        }
        var listing = SessionListing(total: sessions.count, sessions: [], recentAlerts: [:])
        for session in sessions.prefix(max(0, limit)) {
            let id = session.id.string
            guard let snapshot = sessionSnapshot(id: id) else { continue }
            listing.sessions.append(snapshot)
            let count = recent(session)
            if count > 0 { listing.recentAlerts[id] = count }
        }
        return listing
    }

    /// For each live session with alerts in the journal: the alerts it presented within its
    /// app's alert window before its latest event. A lower bound once the journal has wrapped.
    func recentAlertCounts() -> [ObjectIdentifier: Int] {
        var alerts: [UInt64: [SessionJournal.Entry]] = [:]
        journal.forEachEntry { entry in
            if UInt32(entry.type) == MW_EVENT_ALERT_PRESENTED.rawValue {
                alerts[entry.sessionHash, default: []].append(entry)
            }
        }
        guard !alerts.isEmpty else { return [:] }
        // The sessions they belong to: found by the id the entry kept, unless it was cut.
        var sessions: [Session] = []
        var lookedUp = true
        for (hash, entries) in alerts {
            guard let kept = entries[0].session.completeBytes else {
                lookedUp = false
                break
            }
            let found = kept.withUnsafeBytes { table.find($0, hash: hash) }
            if let found { sessions.append(found) }
        }
        if !lookedUp { sessions = table.allSessions().filter { alerts[$0.idHash] != nil } }
        var windows: [String: Int64] = [:]
        var counts: [ObjectIdentifier: Int] = [:]
        for session in sessions {
            guard let entries = alerts[session.idHash] else { continue }
            let app = session.app.name
            let window = windows[app] ?? alertWindowMs(forApp: app)
            windows[app] = window
            let since = session.lastTs.addingSaturated(-window)
            let count = entries.lazy.filter {
                $0.sessionStartedTs == session.startedTs && $0.ts > since && $0.session.matches(session.id.buffer)
            }.count
            if count > 0 { counts[ObjectIdentifier(session)] = count }
        }
        return counts
    }
}
