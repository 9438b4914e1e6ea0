import GRDB

extension ViolationHistory {
    /// The columns every query reads, ids and fingerprints as lowercase hex.
    private static let columns = """
        rowid AS rowid,
        CASE typeof(id) WHEN 'blob' THEN lower(hex(id)) ELSE id END AS id,
        CASE typeof(fingerprint) WHEN 'blob' THEN lower(hex(fingerprint)) ELSE fingerprint END AS fingerprint,
        rule, app, session, severity, ts, observed, json
        """

    /// Hands `body` the rows of a `violations` table (a file of schema v4 or older, or the rows a
    /// conversion has not reached yet) matching `query` after `cursor` (nil: from the newest),
    /// newest first, with their cursors, until `query.limit` rows or `body` returns false.
    ///
    /// On a v3 file (arrival order, `seq`), newest first is `rowid DESC`, and:
    /// - a session is found in `violations_session`, one seek per bucket of 4,096 rows, newest
    ///   bucket first, until the limit is reached (a million rows: 245 seeks);
    /// - a rule in `violations_rule` and an app in `violations_app` (`(rule, rowid)`,
    ///   `(app, rowid)`), read backwards from the newest, stopping at the limit;
    /// - no filter, or `since` alone, reads the table backwards from its end; `since` bounds every
    ///   query by rowid (`firstRowid(observedAtLeast:)`), so it stops at the first row too old.
    /// A v1 or v2 file (read-only readers of an old file) is read as before: `observed DESC, rowid DESC`.
    static func visitRows(
        _ query: HistoryQuery, after cursor: HistoryPage.Cursor?, in db: Database,
        _ body: (_ cursor: HistoryPage.Cursor, _ row: StoredViolation) throws -> Bool
    ) throws {
        let limit = max(0, query.limit)
        guard limit > 0 else { return }
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let app = query.app { clauses.append("app = ?"); arguments.append(app) }
        if let rule = query.rule { clauses.append("rule = ?"); arguments.append(rule) }
        if let since = query.sinceObserved { clauses.append("observed >= ?"); arguments.append(since) }
        var seen = 0
        func emit(_ statement: Statement, _ arguments: [any DatabaseValueConvertible]) throws -> Bool {
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                let violation = StoredViolation(
                    id: row["id"], fingerprint: row["fingerprint"], rule: row["rule"], app: row["app"],
                    session: row["session"], severity: row["severity"], ts: row["ts"], observed: row["observed"],
                    json: row["json"])
                seen += 1
                let at = HistoryPage.Cursor(observed: violation.observed, rowid: row["rowid"])
                guard try body(at, violation), seen < limit else { return false }
            }
            return true
        }
        let arrivalOrder = try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM pragma_table_info('violations') WHERE name = 'seq'") ?? false
        guard arrivalOrder else {
            if let cursor {
                clauses.append("(observed < ? OR (observed = ? AND rowid < ?))")
                arguments += [cursor.observed, cursor.observed, cursor.rowid]
            }
            if let session = query.session { clauses.append("session = ?"); arguments.append(session) }
            let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
            let statement = try db.makeStatement(sql: """
                SELECT \(columns) FROM violations \(filter) ORDER BY observed DESC, rowid DESC LIMIT ?
                """)
            _ = try emit(statement, arguments + [limit])
            return
        }
        // Arrival order: a cursor's rowid alone says where the next page starts, and `since` where
        // the rows young enough start (`firstRowid`), so that no query reads older rows.
        let before = cursor?.rowid
        var first: Int64 = .min
        if let since = query.sinceObserved {
            first = try firstRowid(observedAtLeast: since, in: db)
            clauses.append("rowid >= ?")
            arguments.append(first)
        }
        guard let session = query.session else {
            if let before { clauses.append("rowid < ?"); arguments.append(before) }
            let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
            let statement = try db.cachedStatement(sql: """
                SELECT \(columns) FROM violations \(filter) ORDER BY rowid DESC LIMIT ?
                """)
            _ = try emit(statement, arguments + [limit])
            return
        }
        // A session: bucket by bucket, newest first, each one seek in violations_session.
        guard let newest = try Int64.fetchOne(db, sql: "SELECT MAX(rowid) FROM violations"),
              let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(rowid) FROM violations") else { return }
        let top = before.map { min($0 - 1, newest) } ?? newest
        guard top >= oldest else { return }
        let shift = legacySessionBucketShift
        let statement = try db.cachedStatement(sql: """
            SELECT \(columns) FROM violations INDEXED BY violations_session
            WHERE (seq >> 12) = ? AND session = ? AND rowid <= ?\(clauses.map { " AND " + $0 }.joined())
            ORDER BY rowid DESC
            """)
        var bucket = top >> shift
        while bucket >= max(oldest, first) >> shift {
            guard try emit(statement, [bucket, session, top] + arguments) else { return }
            bucket -= 1
        }
    }
}
