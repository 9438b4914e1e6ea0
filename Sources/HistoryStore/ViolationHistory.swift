import Foundation
import GRDB
import GRDBSQLite

/// The history store: every violation the daemon publishes, written first, in
/// an SQLite file in the state directory (WAL: a commit survives the process
/// being killed). The daemon writes from one thread; readers may open the same
/// file read-only at any time.
///
/// Schema v2: `id` and `fingerprint` are 16- and 8-byte BLOBs (big-endian, so
/// their hex is the published string), bound straight from the daemon's bytes
/// by `write(_:)`. A v1 file (hex TEXT) is converted when the writer opens it;
/// a read-only reader reads either.
public final class ViolationHistory: Sendable {
    /// The file name inside the state directory.
    public static let fileName = "history.sqlite"

    let database: DatabaseQueue
    /// The file.
    public let path: String

    /// Opens (creating and migrating when `readOnly` is false) the store at `path`. With
    /// `checkpointsElsewhere`, this connection never checkpoints the WAL itself: a
    /// `HistoryCheckpointer` does, so that no commit waits for a checkpoint. A statement that
    /// finds the file locked by another connection waits `busyTimeout` seconds at most, then
    /// fails (`SQLITE_BUSY`). With `walSizeLimit`, a WAL that a checkpoint starts over is cut
    /// back to that many bytes (`journal_size_limit`).
    public init(path: String, readOnly: Bool = false, checkpointsElsewhere: Bool = false,
                busyTimeout: Double = 2, walSizeLimit: Int? = nil) throws {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.label = "modalwatch.history"
        if !readOnly {
            configuration.journalMode = .wal
            configuration.prepareDatabase { db in
                // 4 KiB pages for a new file (an existing one keeps its own: SQLite ignores this then).
                // Each commit writes whole pages, the table's and each index's last ones, and a small
                // commit dirties several pages a violation: at small commits (the latency run's) 4 KiB
                // pages cost fewer instructions and bytes a commit than 8 KiB, at commits of 1,000
                // slightly more instructions (docs/PERFORMANCE.md, "WAL pages: 4 KiB against 8 KiB
                // pages"). Set here, before GRDB turns WAL
                // on and the schema is made.
                try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
                // WAL + NORMAL: a commit is in the WAL file before it returns; a killed
                // process loses nothing committed (only a power loss can cost the last ones).
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // A 16 MiB page cache (docs/RELIABILITY.md, "Fault soak": 64 MiB was no faster on a
                // million rows) and fewer, larger checkpoints: the writer batches anyway.
                try db.execute(sql: "PRAGMA cache_size = -16384")
                try db.execute(sql: checkpointsElsewhere ? "PRAGMA wal_autocheckpoint = 0" : "PRAGMA wal_autocheckpoint = 16384")
                if let walSizeLimit { try db.execute(sql: "PRAGMA journal_size_limit = \(walSizeLimit)") }
            }
        }
        configuration.busyMode = .timeout(busyTimeout)
        database = try DatabaseQueue(path: path, configuration: configuration)
        if !readOnly { try Self.migrator.migrate(database) }
    }

    /// The page size of a file this store creates.
    static let pageSize = 4096

    /// The v1 table, exactly as the first release created it (ids and fingerprints as hex TEXT).
    static let schemaV1 = """
        CREATE TABLE violations (
            id TEXT PRIMARY KEY NOT NULL,
            fingerprint TEXT NOT NULL,
            rule TEXT NOT NULL,
            app TEXT NOT NULL,
            session TEXT NOT NULL,
            severity TEXT NOT NULL,
            ts INTEGER NOT NULL,
            observed INTEGER NOT NULL,
            json TEXT NOT NULL
        );
        CREATE INDEX violations_observed ON violations(observed);
        CREATE INDEX violations_app ON violations(app, observed);
        CREATE INDEX violations_rule ON violations(rule, observed);
        """

    /// The v2 table: `id` (16 bytes) and `fingerprint` (8 bytes) as big-endian BLOBs.
    ///
    /// The key that keeps a replayed violation once is `(ts, id)`, not `id` alone: the same
    /// thing, since an id is derived from the triggering event's time (a replay has the same
    /// `ts` and the same id), but cheap to keep up. Ids are random, so an index on `id` takes
    /// each new row on a random page, and every commit writes hundreds of pages of it to the
    /// WAL; `ts` follows the clock, so live violations go in at the index's end.
    ///
    /// The indexes are the ones the queries of `find` and `prune` need: `observed` for
    /// newest-first without a filter, `--since` and retention; `(app, observed)` for
    /// `--app` and the control socket's `session` (app and session); `(rule, observed)`
    /// for `--rule`. Without them each of those reads the whole table (up to a million
    /// rows), on the daemon's ingest thread when asked through the control socket.
    static let schemaV2Table = """
        CREATE TABLE violations_v2 (
            id BLOB NOT NULL,
            fingerprint BLOB NOT NULL,
            rule TEXT NOT NULL,
            app TEXT NOT NULL,
            session TEXT NOT NULL,
            severity TEXT NOT NULL,
            ts INTEGER NOT NULL,
            observed INTEGER NOT NULL,
            json TEXT NOT NULL,
            PRIMARY KEY (ts, id)
        )
        """
    static let schemaV2Indexes = """
        CREATE INDEX violations_observed ON violations(observed);
        CREATE INDEX violations_app ON violations(app, observed);
        CREATE INDEX violations_rule ON violations(rule, observed);
        """

    /// v4 is v3 without `violations_observed` (the migration drops it).
    ///
    /// The v3 table: rows in arrival order under an integer key, so that the table and
    /// every index grow at their end.
    ///
    /// `seq` (the rowid) numbers rows as they are stored; newest first is `seq DESC`.
    /// `(ts, id)` keeps a replayed violation once and grows with the event clock.
    /// `app`, `rule` and `observed` are indexed with the rowid appended (SQLite appends it
    /// to every index key), so a new row goes at the end of its app's, its rule's and the
    /// clock's run: a commit writes one leaf page per app and rule in it, not one per row.
    /// Sessions are many and their ids random, so their index is cut in buckets of
    /// 4,096 consecutive rows (`sessionBucketShift`): `(seq >> 12, session)`. New rows go only into
    /// the newest bucket (a few dozen pages, hot in the cache), and a session's rows are
    /// found by one index seek per bucket, newest bucket first.
    static let schemaV3Table = """
        CREATE TABLE violations_v3 (
            seq INTEGER PRIMARY KEY,
            id BLOB NOT NULL,
            fingerprint BLOB NOT NULL,
            rule TEXT NOT NULL,
            app TEXT NOT NULL,
            session TEXT NOT NULL,
            severity TEXT NOT NULL,
            ts INTEGER NOT NULL,
            observed INTEGER NOT NULL,
            json TEXT NOT NULL
        )
        """
    static let schemaV3Indexes = """
        CREATE UNIQUE INDEX violations_key ON violations(ts, id);
        CREATE INDEX violations_observed ON violations(observed);
        CREATE INDEX violations_app ON violations(app);
        CREATE INDEX violations_rule ON violations(rule);
        CREATE INDEX violations_session ON violations(seq >> 12, session);
        """
    /// Rows per bucket of the session index (`seq >> 12`).
    static let sessionBucketShift: Int64 = 12

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: schemaV1) }
        migrator.registerMigration("v2") { db in
            // Hex TEXT to BLOB: a new table, the rows copied in their order (rowid order is
            // insertion order, the tie-break of newest-first), the old table dropped.
            db.add(function: HexBlob.function)
            try db.execute(sql: schemaV2Table)
            try db.execute(sql: """
                INSERT OR IGNORE INTO violations_v2 (id, fingerprint, rule, app, session, severity, ts, observed, json)
                SELECT \(HexBlob.name)(id), \(HexBlob.name)(fingerprint), rule, app, session, severity, ts, observed, json
                FROM violations ORDER BY rowid
                """)
            try db.execute(sql: "DROP TABLE violations")
            try db.execute(sql: "ALTER TABLE violations_v2 RENAME TO violations")
            try db.execute(sql: schemaV2Indexes)
            db.remove(function: HexBlob.function)
        }
        migrator.registerMigration("v3") { db in
            // Arrival order: the rows copied in newest-first order's reverse, numbered anew.
            try db.execute(sql: schemaV3Table)
            try db.execute(sql: """
                INSERT OR IGNORE INTO violations_v3 (id, fingerprint, rule, app, session, severity, ts, observed, json)
                SELECT id, fingerprint, rule, app, session, severity, ts, observed, json
                FROM violations ORDER BY observed, rowid
                """)
            try db.execute(sql: "DROP TABLE violations")
            try db.execute(sql: "ALTER TABLE violations_v3 RENAME TO violations")
            try db.execute(sql: schemaV3Indexes)
        }
        migrator.registerMigration("v4") { db in
            // No query reads `violations_observed` (newest first and `--since` read the table
            // backwards; retention by age reads the table from its start). One B-tree fewer per
            // row: fewer SQLite instructions and, in small commits, fewer WAL pages per violation
            // (docs/PERFORMANCE.md, "What bounds each figure").
            try db.execute(sql: "DROP INDEX IF EXISTS violations_observed")
        }
        return migrator
    }

    static let insertSQL = """
        INSERT OR IGNORE INTO violations (id, fingerprint, rule, app, session, severity, ts, observed, json)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Writes in one transaction whatever `body` inserts through the writer it is given
    /// (which must not outlive the call). Returns the number of violations handed to it.
    /// A violation already stored (same id: a replay) is kept once. When `body` throws,
    /// nothing of it is written.
    @discardableResult
    public func write(_ body: (inout ViolationWriter) throws -> Void) throws -> Int {
        try database.write { db in
            let statement = try db.cachedStatement(sql: Self.insertSQL)
            var writer = ViolationWriter(statement: statement.sqliteStatement, connection: db.sqliteConnection)
            defer { writer.finish() }
            try body(&writer)
            return writer.count
        }
    }

    /// Writes a batch in one transaction. A violation already stored (same id: a replay) is kept once.
    /// Throws `HistoryStoreError` when an id is not 32 hex digits or a fingerprint not 16.
    public func insert(_ rows: [StoredViolation]) throws {
        guard !rows.isEmpty else { return }
        try write { writer in
            for row in rows {
                guard row.id.utf8.count == 32, let high = UInt64(row.id.prefix(16), radix: 16),
                      let low = UInt64(row.id.suffix(16), radix: 16) else {
                    throw HistoryStoreError("violation id '\(row.id)' is not 32 hex digits")
                }
                guard row.fingerprint.utf8.count == 16, let fingerprint = UInt64(row.fingerprint, radix: 16) else {
                    throw HistoryStoreError("fingerprint '\(row.fingerprint)' of violation \(row.id) is not 16 hex digits")
                }
                var row = row
                try row.rule.withUTF8 { rule in
                    try row.app.withUTF8 { app in
                        try row.session.withUTF8 { session in
                            try row.severity.withUTF8 { severity in
                                try row.json.withUTF8 { json in
                                    try writer.insert(
                                        idHigh: high, idLow: low, fingerprint: fingerprint,
                                        rule: UnsafeRawBufferPointer(rule), app: UnsafeRawBufferPointer(app),
                                        session: UnsafeRawBufferPointer(session), severity: UnsafeRawBufferPointer(severity),
                                        ts: row.ts, observed: row.observed, json: UnsafeRawBufferPointer(json))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// A TRUNCATE checkpoint: copies the WAL into the file and gives the WAL's blocks back to
    /// the file system (it fails while a reader still needs the WAL; nothing is lost then).
    public func checkpointTruncating() throws {
        try database.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }

    /// Deletes what is older than `maxAgeMs` before `now` and, past `maxRows`, the oldest. Returns rows deleted.
    @discardableResult
    public func prune(now: Int64, maxAgeMs: Int64?, maxRows: Int?) throws -> Int {
        try database.write { db in
            var deleted = 0
            if let maxAgeMs {
                // Rows are in arrival order and `observed` is the wall clock when each was found: the
                // old ones are a range from the table's start, up to the first row young enough (all of
                // them when none is). Read from the start, it costs the rows it deletes, and no index.
                // (A row stored after the wall clock stepped back goes with the rows after it.)
                try db.execute(sql: """
                    DELETE FROM violations WHERE rowid < COALESCE(
                        (SELECT rowid FROM violations WHERE observed >= ? ORDER BY rowid LIMIT 1),
                        (SELECT MAX(rowid) + 1 FROM violations))
                    """, arguments: [now.subtractingReportingOverflow(maxAgeMs).overflow ? Int64.min : now - maxAgeMs])
                deleted += db.changesCount
            }
            if let maxRows {
                // The oldest are the lowest rowids (v3: arrival order): one range from the start.
                try db.execute(sql: """
                    DELETE FROM violations WHERE rowid <= (
                        SELECT rowid FROM violations ORDER BY rowid DESC LIMIT 1 OFFSET ?)
                    """, arguments: [maxRows])
                deleted += db.changesCount
            }
            return deleted
        }
    }

    /// Violations matching `query`, newest first, ids and fingerprints as lowercase hex
    /// (from a v2 or v3 file's BLOBs, or a v1 file's TEXT as it is). Which index serves
    /// which query: see `visit(_:before:in:_:)`.
    public func find(_ query: HistoryQuery) throws -> [StoredViolation] {
        try database.read { db in
            var rows: [StoredViolation] = []
            try Self.visit(query, after: nil, in: db) { _, row in
                rows.append(row)
                return true
            }
            return rows
        }
    }

    /// Rows stored.
    public func count() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM violations") ?? 0 }
    }

    /// The schema migrations applied to the file, oldest first (`v1` … `v4`).
    public func appliedMigrations() throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
    }
}
