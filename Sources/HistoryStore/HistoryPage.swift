import GRDB

/// One page of the history, newest first, and where the next one starts.
public struct HistoryPage: Sendable {
    /// Where a page starts: after this row, in newest-first order.
    public struct Cursor: Sendable, Equatable {
        /// The `observed` of the last row of the previous page.
        public var observed: Int64
        /// Its rowid (the tie-break of newest-first).
        public var rowid: Int64

        /// A cursor.
        public init(observed: Int64, rowid: Int64) {
            self.observed = observed
            self.rowid = rowid
        }

        /// `observed.rowid`, as the control socket passes it.
        public var text: String { "\(observed).\(rowid)" }

        /// Reads `observed.rowid`; nil when it is not that.
        public init?(text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let observed = Int64(parts[0]), let rowid = Int64(parts[1]) else { return nil }
            self.init(observed: observed, rowid: rowid)
        }
    }

    /// The rows, newest first.
    public var rows: [StoredViolation]
    /// Where the next page starts, or nil when this one ended the matches.
    public var next: Cursor?
}

extension ViolationHistory {
    /// Violations matching `query` after `cursor` (nil: from the newest), newest first: at most
    /// `query.limit` rows and, past the first row, at most `maxBytes` of their JSON. `next` is set
    /// when more may match, so that a large answer comes in pages of a bounded size.
    public func findPage(_ query: HistoryQuery, after cursor: HistoryPage.Cursor?, maxBytes: Int) throws -> HistoryPage {
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let app = query.app { clauses.append("app = ?"); arguments.append(app) }
        if let rule = query.rule { clauses.append("rule = ?"); arguments.append(rule) }
        if let session = query.session { clauses.append("session = ?"); arguments.append(session) }
        if let since = query.sinceObserved { clauses.append("observed >= ?"); arguments.append(since) }
        if let cursor {
            clauses.append("(observed < ? OR (observed = ? AND rowid < ?))")
            arguments += [cursor.observed, cursor.observed, cursor.rowid]
        }
        let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        let limit = max(0, query.limit)
        arguments.append(limit)
        return try database.read { db in
            let cursorRows = try Row.fetchCursor(db, sql: """
                SELECT rowid AS rowid,
                    CASE typeof(id) WHEN 'blob' THEN lower(hex(id)) ELSE id END AS id,
                    CASE typeof(fingerprint) WHEN 'blob' THEN lower(hex(fingerprint)) ELSE fingerprint END AS fingerprint,
                    rule, app, session, severity, ts, observed, json FROM violations
                \(filter) ORDER BY observed DESC, rowid DESC LIMIT ?
                """, arguments: StatementArguments(arguments))
            var page = HistoryPage(rows: [], next: nil)
            var bytes = 0
            var cut = false
            var last: HistoryPage.Cursor?
            while let row = try cursorRows.next() {
                let json: String = row["json"]
                if !page.rows.isEmpty && bytes + json.utf8.count > maxBytes {
                    cut = true
                    break
                }
                bytes += json.utf8.count
                page.rows.append(StoredViolation(
                    id: row["id"], fingerprint: row["fingerprint"], rule: row["rule"], app: row["app"],
                    session: row["session"], severity: row["severity"], ts: row["ts"], observed: row["observed"], json: json))
                last = HistoryPage.Cursor(observed: row["observed"], rowid: row["rowid"])
            }
            // Cut by bytes, or as many rows as asked: more may follow. Fewer: the matches ended.
            if cut || (limit > 0 && page.rows.count == limit) { page.next = last }
            return page
        }
    }
}
