import ModalwatchABI

/// The live sessions read in slices, so that a `sessions` listing of any size never holds
/// the engine's thread for long: each call visits sessions until its caller says stop, and
/// the next call goes on from there. The walk is by table slot, which a session keeps for its
/// whole life: a session that lives through the scan is seen once; one that starts or ends
/// meanwhile may or may not be.
extension Engine {
    /// Where a scan of the live sessions stands. Made and used on the engine's thread.
    public final class SessionScan {
        /// Only sessions of this app (every app when nil).
        public let app: String?
        /// The next slot to visit.
        fileprivate var nextSlot = 0
        /// The journal's `alert.presented` entries by session hash, read by the first slice.
        fileprivate var alerts: [UInt64: [SessionJournal.Entry]]?
        /// The alert window of each app met so far.
        fileprivate var windows: [String: Int64] = [:]
        /// Whether every slot was visited.
        public fileprivate(set) var finished = false

        /// A scan from the first slot.
        public init(app: String?) {
            self.app = app
        }
    }

    /// One session a scan found: its snapshot, and its alerts within its app's alert window.
    public struct ScannedSession: Sendable {
        /// The session.
        public var snapshot: SessionSnapshot
        /// Alerts it presented within `windowMs` before its latest event (from the journal).
        public var recentAlerts: Int
        /// Its app's alert window, in ms.
        public var windowMs: Int64
    }

    /// Goes on with `scan`: visits sessions until `shouldStop()` (asked every 8 sessions) is
    /// true or every slot was visited, and returns the ones of its app. The first call only reads
    /// the journal's alerts (bounded by the journal's capacity) and returns none.
    public func continueScan(_ scan: SessionScan, shouldStop: () -> Bool) -> [ScannedSession] {
        guard !scan.finished else { return [] }
        guard let alerts = scan.alerts else {
            scan.alerts = journalAlerts()
            return []
        }
        var found: [ScannedSession] = []
        var visited = 0
        while scan.nextSlot < table.slotCount {
            if visited & 7 == 7 && shouldStop() { return found }
            let slot = scan.nextSlot
            scan.nextSlot += 1
            visited += 1
            guard let session = table.session(inSlot: slot) else { continue }
            let app = session.app.name
            if let only = scan.app, only != app { continue }
            let window = scan.windows[app] ?? alertWindowMs(forApp: app)
            scan.windows[app] = window
            let snapshot = snapshot(session)
            var recent = 0
            if let entries = alerts[session.idHash] {
                let since = session.lastTs.addingSaturated(-window)
                recent = entries.lazy.filter {
                    $0.sessionStartedTs == session.startedTs && $0.ts > since && $0.session.matches(session.id.buffer)
                }.count
            }
            found.append(ScannedSession(snapshot: snapshot, recentAlerts: recent, windowMs: window))
        }
        scan.finished = true
        return found
    }

    /// The journal's `alert.presented` entries, by session hash.
    private func journalAlerts() -> [UInt64: [SessionJournal.Entry]] {
        var alerts: [UInt64: [SessionJournal.Entry]] = [:]
        journal.forEachEntry { entry in
            if UInt32(entry.type) == MW_EVENT_ALERT_PRESENTED.rawValue {
                alerts[entry.sessionHash, default: []].append(entry)
            }
        }
        return alerts
    }
}

@available(*, unavailable)
extension Engine.SessionScan: Sendable {}
