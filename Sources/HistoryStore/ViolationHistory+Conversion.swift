import GRDB

extension ViolationHistory {
    /// How far the conversion of 0.1.0's file has come.
    public struct ConversionProgress: Sendable, Equatable {
        /// Violations converted so far by this conversion.
        public var converted: Int
        /// Violations still to convert (0: done, and the old table dropped).
        public var remaining: Int
    }

    /// 0.1.0's file, in one transaction: its indexes dropped, its `violations` table renamed
    /// `violations_v1` (what `convertReleasedRows` reads), GRDB's migration table dropped and the
    /// current schema made.
    static func setReleasedRowsAside(_ db: Database) throws {
        for index in HistorySchema.releasedIndexes { try db.execute(sql: "DROP INDEX IF EXISTS \(index)") }
        try db.execute(sql: "ALTER TABLE violations RENAME TO \(HistorySchema.releasedTable)")
        try db.execute(sql: "DROP TABLE grdb_migrations")
        try db.execute(sql: HistorySchema.sqliteTable)
        try db.execute(sql: "PRAGMA user_version = \(HistorySchema.version)")
    }

    /// Converts the rows of 0.1.0's file set aside (`violations_v1`), newest first, `slice` a
    /// transaction: each slice's rows go into `violation_rows` with their sequence numbers, ids and
    /// fingerprints as hex, and leave the old table, and `progress` is told. A process stopped
    /// between slices goes on where it stopped at the next start. The old table is dropped once
    /// it is empty. Nothing to do when there is none.
    func convertReleasedRows(slice: Int, progress: (ConversionProgress) throws -> Void) throws {
        let old = HistorySchema.releasedTable
        let slice = max(1, slice)
        var converted = 0
        while true {
            let remaining = try database.write { db -> Int? in
                guard try db.tableExists(old) else { return nil }
                guard
                    let oldest = try Int64.fetchOne(
                        db,
                        sql: """
                            SELECT MIN(seq) FROM (SELECT seq FROM \(old) ORDER BY seq DESC LIMIT \(slice))
                            """
                    )
                else {
                    try db.execute(sql: "DROP TABLE \(old)")
                    return 0
                }
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO \(Self.sql.table) (seq, id, ts, observed, rule, severity, app, session, fingerprint, json)
                        SELECT seq, \(Self.hexText("id")), ts, observed, rule, severity, app, session, \(Self.hexText("fingerprint")), json
                        FROM \(old) WHERE seq >= ? ORDER BY seq
                        """,
                    arguments: [oldest]
                )
                converted += db.changesCount
                try db.execute(sql: "DELETE FROM \(old) WHERE seq >= ?", arguments: [oldest])
                let left = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(old)") ?? 0
                if left == 0 { try db.execute(sql: "DROP TABLE \(old)") }
                return left
            }
            guard let remaining else { return }
            try progress(ConversionProgress(converted: converted, remaining: remaining))
            if remaining == 0 { return }
        }
    }

    /// A 0.1.0 column of 16 or 8 bytes as lowercase hex (a text there, which no release wrote, as it is).
    private static func hexText(_ column: String) -> String {
        "CASE WHEN typeof(\(column)) = 'blob' THEN lower(hex(\(column))) ELSE \(column) END"
    }
}

/// What the schema of a history file is, read before anything is written to it.
enum HistoryFileVersion: Equatable {
    /// No table yet: a writer creates the current schema.
    case empty
    /// `HistorySchema.version`.
    case current
    /// 0.1.0's (`HistorySchema.releasedVersion`): converted by a writer.
    case released
    /// Any other: refused; what it is, after "the history PATH".
    case unsupported(String)

    init(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let tables = Set(
            try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        )
        let reads =
            "this release reads schema version \(HistorySchema.version) and converts 0.1.0's; move the file aside to start a new history"
        switch version {
        case HistorySchema.version:
            self =
                try Self.sequencesInRange(of: HistorySchema.sqliteTableName, in: db).map {
                    .unsupported($0 + "; " + reads)
                } ?? .current
        case let newer where newer > HistorySchema.version:
            self = .unsupported(
                "is schema version \(newer), newer than this release's (\(HistorySchema.version)): a later modalwatch wrote it"
            )
        case 0 where tables.isEmpty:
            self = .empty
        case 0 where tables.contains("grdb_migrations"):
            let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
            if applied == HistorySchema.releasedMigrations && tables.contains("violations")
                && !tables.contains(HistorySchema.sqliteTableName)
            {
                self =
                    try Self.sequencesInRange(of: "violations", in: db).map { .unsupported($0 + "; " + reads) }
                    ?? .released
            } else {
                let names = applied.sorted().joined(separator: ", ")
                let whose =
                    applied.contains("v5") || applied.contains("v6")
                    ? "an unreleased build's segments" : "no release's format"
                self = .unsupported("has the schema migrations \(names) (\(whose)); \(reads)")
            }
        default:
            self = .unsupported("has schema version \(version), which no release wrote; \(reads)")
        }
    }

    /// Nil when every sequence number of `table` (its rows' and the next one SQLite would give)
    /// is in 1 to `ViolationHistory.maxSequence`, so that the arithmetic on them cannot overflow;
    /// else what is wrong, after "the history PATH".
    private static func sequencesInRange(of table: String, in db: Database) throws -> String? {
        let range = 1...ViolationHistory.maxSequence
        if let row = try Row.fetchOne(db, sql: "SELECT MIN(seq), MAX(seq) FROM \(table)"),
            let oldest = row[0] as Int64?, let newest = row[1] as Int64?,
            !range.contains(oldest) || !range.contains(newest)
        {
            return "holds sequence numbers from \(oldest) to \(newest), outside 1 to 2^62: no modalwatchd wrote them"
        }
        if try db.tableExists("sqlite_sequence"),
            let next = try Int64.fetchOne(
                db,
                sql: "SELECT seq FROM sqlite_sequence WHERE name = ?",
                arguments: [table]
            ),
            !(0...ViolationHistory.maxSequence).contains(next)
        {
            return "would number its next row after \(next), outside 1 to 2^62: no modalwatchd wrote it"
        }
        return nil
    }
}
