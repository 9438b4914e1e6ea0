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
        /// The walk of the journal for its alerts, which the first slices copy (nil before the first).
        fileprivate var alertWalk: JournalWalk?
        /// The alert window of each app met so far.
        fileprivate var windows: [String: Int64] = [:]
        /// Whether every slot was visited.
        public fileprivate(set) var finished = false

        /// A scan from the first slot.
        public init(app: String?) {
            self.app = app
        }
    }

    /// One session a scan found: its snapshot, and its app's alert window.
    public struct ScannedSession: Sendable {
        /// The session.
        public var snapshot: SessionSnapshot
        /// Its app's alert window, in ms.
        public var windowMs: Int64
    }

    /// What a scan's slice found: sessions, or (the first slices, before any session) some of the
    /// journal's alerts.
    public enum ScanSlice: Sendable {
        /// Live sessions.
        case sessions([ScannedSession])
        /// Some of the journal's `alert.presented` entries, copied as they are (no strings); the
        /// slices before the first `sessions` one hold them all, together.
        case alerts(JournalAlerts)
    }

    /// The journal's `alert.presented` entries, for counting each session's recent alerts on
    /// another thread than the engine's (`index()`, then `JournalAlerts.Index.count`).
    public struct JournalAlerts: Sendable {
        fileprivate var entries: [SessionJournal.Entry]

        /// No alerts.
        public init() {
            entries = []
        }

        fileprivate init(entries: [SessionJournal.Entry]) {
            self.entries = entries
        }

        /// Adds the alerts of a later slice.
        public mutating func append(_ other: JournalAlerts) {
            entries.append(contentsOf: other.entries)
        }

        /// The entries by session, for counting.
        public func index() -> Index {
            // A `Dictionary`, whose buckets are keyed by the process's `Hasher` seed; ids of one
            // public hash (FNV-1a) share an array, told apart by their bytes.
            var bySession: [UInt64: [SessionJournal.Entry]] = [:]
            for entry in entries { bySession[entry.sessionHash, default: []].append(entry) }
            return Index(bySession: bySession)
        }

        /// The journal's alerts by session.
        public struct Index: Sendable {
            fileprivate var bySession: [UInt64: [SessionJournal.Entry]]

            /// The alerts `session` presented within `windowMs` of event time before its latest
            /// event, in its current launch, as the journal holds them; and whether the journal
            /// holds every alert of the launch (false once it has wrapped past one, and for a
            /// session restored from a checkpoint, whose earlier alerts it never saw): when it does
            /// not, the count is a lower bound.
            public func count(for session: SessionSnapshot, windowMs: Int64) -> (inWindow: Int, complete: Bool) {
                var id = session.id
                return id.withUTF8 { utf8 in
                    let bytes = UnsafeRawBufferPointer(utf8)
                    guard let entries = bySession[Hashing.fnv1a(bytes)] else { return (0, session.alerts == 0) }
                    let since = session.lastTs.addingSaturated(-windowMs)
                    var inWindow = 0
                    var seen: UInt64 = 0
                    for entry in entries
                    where entry.sessionStartedTs == session.startedTs && entry.session.matches(bytes) {
                        seen += 1
                        if entry.ts > since { inWindow += 1 }
                    }
                    return (inWindow, seen >= session.alerts)
                }
            }
        }
    }

    /// Sessions in one slice at most: one allocation of its final size (~13 KB; see `journalPiece`).
    public static let scanSlice = 64

    /// Goes on with `scan`: visits sessions until `shouldStop()` (asked every 8 slots) is true,
    /// `scanSlice` were found or every slot was visited, and returns the ones of its app. The
    /// first calls copy the journal's alerts instead, a step of `journalStep` entries at a time
    /// (asked after each), in pieces of at most `journalPiece`. A caller with time left in its
    /// turn calls again.
    public func continueScan(_ scan: SessionScan, shouldStop: () -> Bool) -> ScanSlice {
        guard !scan.finished else { return .sessions([]) }
        let walk = scan.alertWalk ?? startJournalWalk()
        scan.alertWalk = walk
        if !walk.finished {
            var alerts: [SessionJournal.Entry] = []
            alerts.reserveCapacity(Self.journalPiece)
            repeat {
                stepJournalWalk(walk) { entry in
                    if UInt32(entry.type) == MW_EVENT_ALERT_PRESENTED.rawValue { alerts.append(entry) }
                }
            } while !walk.finished && alerts.count + Self.journalStep <= Self.journalPiece && !shouldStop()
            return .alerts(JournalAlerts(entries: alerts))
        }
        var found: [ScannedSession] = []
        found.reserveCapacity(Self.scanSlice)
        var visited = 0
        while scan.nextSlot < table.slotCount {
            if found.count == Self.scanSlice || (visited & 7 == 7 && shouldStop()) { return .sessions(found) }
            let slot = scan.nextSlot
            scan.nextSlot += 1
            visited += 1
            guard let session = table.session(inSlot: slot) else { continue }
            let app = session.app.name
            if let only = scan.app, only != app { continue }
            let window = scan.windows[app] ?? alertWindowMs(forApp: app)
            scan.windows[app] = window
            found.append(ScannedSession(snapshot: snapshot(session), windowMs: window))
        }
        scan.finished = true
        return .sessions(found)
    }
}

@available(*, unavailable)
extension Engine.SessionScan: Sendable {}
