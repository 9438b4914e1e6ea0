import GRDB

extension ViolationHistory {
    /// The first rowid from which rows were observed at `since` or later, found by binary search
    /// over rowid: rows are stored in arrival order, so `observed` grows with rowid (v3 and
    /// later). About log2(rows) seeks of one row each (20 for a million rows) instead of reading
    /// every row older than `since` to find that none matches. The bound may not exist itself
    /// (pruned, or past the newest when no row is young enough). A row stored after the wall
    /// clock stepped back can move it, as it does for retention by age (`prune`).
    static func firstRowid(observedAtLeast since: Int64, in db: Database) throws -> Int64 {
        guard let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(rowid) FROM violations"),
              let newest = try Int64.fetchOne(db, sql: "SELECT MAX(rowid) FROM violations") else { return 0 }
        let atOrAfter = try db.cachedStatement(sql: "SELECT rowid, observed FROM violations WHERE rowid >= ? ORDER BY rowid LIMIT 1")
        // The answer lies in [low, high]; high = newest + 1 says no row is young enough.
        var low = oldest, high = newest + 1
        while low < high {
            let mid = low + (high - low) / 2
            guard let row = try Row.fetchOne(atOrAfter, arguments: [mid]) else { break }
            let rowid: Int64 = row[0], observed: Int64 = row[1]
            if observed >= since { high = mid } else { low = rowid + 1 }
        }
        return low
    }
}
