import ControlProtocol
import SessionEngine

/// A `sessions` listing put together on the control thread from the slices the ingest thread
/// sends (`Engine.continueScan`): counted, deduplicated, sorted in the order asked and cut to
/// its limit. It keeps at most about twice the limit between slices (the best so far), so a
/// small limit over many sessions stays small.
struct SessionRanking {
    /// The order asked.
    let order: SessionsRequest.Sort
    /// At most this many sessions in the reply.
    let limit: Int
    /// Live sessions of the app seen so far.
    private(set) var total = 0
    /// The journal's alerts (the scan's first slice), for each session's `alerts_window`.
    var alerts: Engine.JournalAlerts.Index?
    private var kept: [Ranked] = []

    /// A session found, and its alerts within its app's window.
    private struct Ranked {
        var scanned: Engine.ScannedSession
        var recentAlerts: Int
        var snapshot: SessionSnapshot { scanned.snapshot }
    }

    /// An empty listing.
    init(order: SessionsRequest.Sort, limit: Int) {
        self.order = order
        self.limit = max(0, limit)
    }

    /// Adds a slice.
    mutating func add(_ slice: [Engine.ScannedSession]) {
        total += slice.count
        kept.append(contentsOf: slice.map {
            Ranked(scanned: $0, recentAlerts: alerts?.count(for: $0.snapshot, windowMs: $0.windowMs) ?? 0)
        })
        if kept.count >= max(2 * limit, 4096) { cut() }
    }

    /// The sessions of the reply, in order.
    mutating func finish() -> [SessionInfo] {
        // A session that ended and started again during the scan may have been seen twice: the later one stays.
        var latest: [String: Int] = [:]
        for (index, item) in kept.enumerated() {
            if let seen = latest[item.snapshot.id], kept[seen].snapshot.lastObserved > item.snapshot.lastObserved { continue }
            latest[item.snapshot.id] = index
        }
        if latest.count < kept.count {
            total -= kept.count - latest.count
            kept = latest.values.sorted().map { kept[$0] }
        }
        cut()
        return kept.map { item in
            var info = SessionReplyParts.sessionInfo(item.snapshot)
            info.alertsWindow = item.recentAlerts
            info.windowMs = item.scanned.windowMs
            return info
        }
    }

    /// Sorts what is kept and keeps the first `limit`.
    private mutating func cut() {
        let order = order
        kept.sort { Self.precedes($0, $1, order) }
        if kept.count > limit { kept.removeSubrange(limit...) }
    }

    /// Whether `a` comes before `b`: the order's key, greatest first, then the most recently
    /// active, then by id (so that the order does not depend on where the table keeps them).
    private static func precedes(_ a: Ranked, _ b: Ranked, _ order: SessionsRequest.Sort) -> Bool {
        let x = a.snapshot, y = b.snapshot
        switch order {
        case .recent: break
        case .alerts:
            if (a.recentAlerts, x.alerts) != (b.recentAlerts, y.alerts) { return (a.recentAlerts, x.alerts) > (b.recentAlerts, y.alerts) }
        case .depth:
            if (x.modalDepth, x.maxModalDepth) != (y.modalDepth, y.maxModalDepth) { return (x.modalDepth, x.maxModalDepth) > (y.modalDepth, y.maxModalDepth) }
        case .violations:
            if x.violations != y.violations { return x.violations > y.violations }
        case .events:
            if x.events != y.events { return x.events > y.events }
        }
        if x.lastObserved != y.lastObserved { return x.lastObserved > y.lastObserved }
        return x.id < y.id
    }
}
