import ControlProtocol
import SessionEngine

/// A `sessions` listing put together on the control thread from the slices the ingest thread
/// sends (`Engine.continueScan`): counted, deduplicated, sorted in the order asked and cut to
/// its limit. Only the sessions after the request's cursor count for the page, and it keeps at
/// most about twice what one page can hold between slices (the best so far), so any limit over
/// many sessions stays small. The reply is cut at `SessionsRequest.maximumReplyBytes` of
/// sessions; `next` is the sort key and id of the last one sent (docs/spec-decisions.md).
struct SessionRanking {
    /// The order asked.
    let order: SessionsRequest.Sort
    /// At most this many sessions in the reply.
    let limit: Int
    /// Where the page starts: only sessions after it in the order are listed.
    let cursor: Cursor?
    /// Live sessions of the app seen so far.
    private(set) var total = 0
    /// Sessions after the cursor seen so far (all of them without one).
    private var following = 0
    /// The journal's alerts (the scan's first slice), for each session's `alerts_window`.
    var alerts: Engine.JournalAlerts.Index?
    private var kept: [Ranked] = []

    /// The most sessions one page can hold: a session's JSON is well over 64 bytes.
    static let sessionsPerPage = SessionsRequest.maximumReplyBytes / 64

    /// A session found, and its alerts within its app's window.
    private struct Ranked {
        var scanned: Engine.ScannedSession
        var recentAlerts: Int
        /// Whether the journal held every alert of the session's launch (else `recentAlerts` is a lower bound).
        var recentAlertsComplete: Bool
        var snapshot: SessionSnapshot { scanned.snapshot }
    }

    /// A place in an order: the order's key (greatest first), then the last activity (most
    /// recent first), then the id. As text: `sort:k1:k2:lastObserved:id`.
    struct Cursor: Equatable {
        var sort: SessionsRequest.Sort
        var first: Int64, second: Int64, lastObserved: Int64
        var id: String

        var text: String { "\(sort.rawValue):\(first):\(second):\(lastObserved):\(id)" }

        init(sort: SessionsRequest.Sort, first: Int64, second: Int64, lastObserved: Int64, id: String) {
            self.sort = sort
            self.first = first
            self.second = second
            self.lastObserved = lastObserved
            self.id = id
        }

        /// A cursor read back, or nil for text that is not one.
        init?(text: String) {
            let parts = text.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
            guard parts.count == 5, let sort = SessionsRequest.Sort(rawValue: String(parts[0])),
                let first = Int64(parts[1]), let second = Int64(parts[2]), let last = Int64(parts[3])
            else { return nil }
            self.init(sort: sort, first: first, second: second, lastObserved: last, id: String(parts[4]))
        }

        /// Whether `self` comes before `other` in the order.
        func precedes(_ other: Cursor) -> Bool {
            if (first, second) != (other.first, other.second) { return (first, second) > (other.first, other.second) }
            if lastObserved != other.lastObserved { return lastObserved > other.lastObserved }
            return id < other.id
        }
    }

    /// A listing of the sessions after `cursor` (from the first without one).
    init(order: SessionsRequest.Sort, limit: Int, cursor: Cursor? = nil) {
        self.order = order
        self.limit = max(0, limit)
        self.cursor = cursor
    }

    /// Adds a slice.
    mutating func add(_ slice: [Engine.ScannedSession]) {
        total += slice.count
        let order = order
        let cursor = cursor
        let alerts = alerts
        for scanned in slice {
            let counted =
                alerts?.count(for: scanned.snapshot, windowMs: scanned.windowMs) ?? (
                    inWindow: 0, complete: scanned.snapshot.alerts == 0
                )
            let item = Ranked(scanned: scanned, recentAlerts: counted.inWindow, recentAlertsComplete: counted.complete)
            if let cursor, !cursor.precedes(Self.key(item, order)) { continue }
            following += 1
            kept.append(item)
        }
        if kept.count >= max(2 * pageLimit, 4096) { cut() }
    }

    /// The sessions of the reply, in order, at most `SessionsRequest.maximumReplyBytes` of them
    /// (at least one), and the cursor after the last when more follow.
    mutating func finish() -> (sessions: [SessionInfo], next: Cursor?) {
        // A session that ended and started again during the scan may have been seen twice: the later one stays.
        var latest: [String: Int] = [:]
        for (index, item) in kept.enumerated() {
            if let seen = latest[item.snapshot.id], kept[seen].snapshot.lastObserved > item.snapshot.lastObserved {
                continue
            }
            latest[item.snapshot.id] = index
        }
        if latest.count < kept.count {
            total -= kept.count - latest.count
            following -= kept.count - latest.count
            kept = latest.values.sorted().map { kept[$0] }
        }
        cut()
        var sessions: [SessionInfo] = []
        var bytes = 0
        for item in kept {
            var info = SessionReplyParts.sessionInfo(item.snapshot)
            info.alertsWindow = item.recentAlerts
            if !item.recentAlertsComplete { info.alertsWindowPartial = true }
            info.windowMs = item.scanned.windowMs
            let size = JSONWriter.encode(info.json).count + 1
            if !sessions.isEmpty && bytes + size > SessionsRequest.maximumReplyBytes { break }
            bytes += size
            sessions.append(info)
        }
        let next = sessions.count < following && !sessions.isEmpty ? Self.key(kept[sessions.count - 1], order) : nil
        return (sessions, next)
    }

    /// The most sessions this page may hold.
    private var pageLimit: Int { min(limit, Self.sessionsPerPage) }

    /// Sorts what is kept and keeps the first `pageLimit`.
    private mutating func cut() {
        let order = order
        kept.sort { Self.key($0, order).precedes(Self.key($1, order)) }
        if kept.count > pageLimit { kept.removeSubrange(pageLimit...) }
    }

    /// Where `item` stands in `order`: the order's key, greatest first, then the most recently
    /// active, then by id (so that the order does not depend on where the table keeps them).
    private static func key(_ item: Ranked, _ order: SessionsRequest.Sort) -> Cursor {
        let s = item.snapshot
        let first: Int64
        let second: Int64
        switch order {
        case .recent: (first, second) = (0, 0)
        case .alerts: (first, second) = (Int64(item.recentAlerts), Int64(clamping: s.alerts))
        case .depth: (first, second) = (Int64(s.modalDepth), Int64(s.maxModalDepth))
        case .violations: (first, second) = (Int64(clamping: s.violations), 0)
        case .events: (first, second) = (Int64(clamping: s.events), 0)
        }
        return Cursor(sort: order, first: first, second: second, lastObserved: s.lastObserved, id: s.id)
    }
}
