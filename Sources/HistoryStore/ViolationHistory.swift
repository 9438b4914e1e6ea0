import Foundation
import GRDB

/// The history store: every violation the daemon publishes, written first, in
/// an SQLite file in the state directory (WAL: a commit survives the process
/// being killed). The daemon writes from one thread; readers may open the same
/// file read-only at any time.
public final class ViolationHistory: @unchecked Sendable {
    /// The file name inside the state directory.
    public static let fileName = "history.sqlite"

    private let database: DatabaseQueue
    /// The file.
    public let path: String

    /// Opens (creating and migrating when `readOnly` is false) the store at `path`.
    public init(path: String, readOnly: Bool = false) throws {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.label = "modalwatch.history"
        if !readOnly {
            configuration.journalMode = .wal
            configuration.prepareDatabase { db in
                // WAL + NORMAL: a commit is in the WAL file before it returns; a killed
                // process loses nothing committed (only a power loss can cost the last ones).
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // A 64 MiB page cache and fewer, larger checkpoints: the writer batches anyway.
                try db.execute(sql: "PRAGMA cache_size = -65536")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 16384")
            }
        }
        configuration.busyMode = .timeout(2)
        database = try DatabaseQueue(path: path, configuration: configuration)
        if !readOnly { try Self.migrator.migrate(database) }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
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
                """)
        }
        return migrator
    }

    /// Writes a batch in one transaction. A violation already stored (same id: a replay) is kept once.
    public func insert(_ rows: [StoredViolation]) throws {
        guard !rows.isEmpty else { return }
        try database.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO violations (id, fingerprint, rule, app, session, severity, ts, observed, json)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for row in rows {
                try statement.execute(arguments: [
                    row.id, row.fingerprint, row.rule, row.app, row.session, row.severity, row.ts, row.observed, row.json,
                ])
            }
        }
    }

    /// Deletes what is older than `maxAgeMs` before `now` and, past `maxRows`, the oldest. Returns rows deleted.
    @discardableResult
    public func prune(now: Int64, maxAgeMs: Int64?, maxRows: Int?) throws -> Int {
        try database.write { db in
            var deleted = 0
            if let maxAgeMs {
                try db.execute(sql: "DELETE FROM violations WHERE observed < ?", arguments: [now - maxAgeMs])
                deleted += db.changesCount
            }
            if let maxRows {
                try db.execute(sql: """
                    DELETE FROM violations WHERE rowid IN (
                        SELECT rowid FROM violations ORDER BY observed DESC, rowid DESC LIMIT -1 OFFSET ?)
                    """, arguments: [maxRows])
                deleted += db.changesCount
            }
            return deleted
        }
    }

    /// Violations matching `query`, newest first.
    public func find(_ query: HistoryQuery) throws -> [StoredViolation] {
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let app = query.app { clauses.append("app = ?"); arguments.append(app) }
        if let rule = query.rule { clauses.append("rule = ?"); arguments.append(rule) }
        if let session = query.session { clauses.append("session = ?"); arguments.append(session) }
        if let since = query.sinceObserved { clauses.append("observed >= ?"); arguments.append(since) }
        let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        arguments.append(max(0, query.limit))
        return try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, fingerprint, rule, app, session, severity, ts, observed, json FROM violations
                \(filter) ORDER BY observed DESC, rowid DESC LIMIT ?
                """, arguments: StatementArguments(arguments)).map { row in
                StoredViolation(
                    id: row["id"], fingerprint: row["fingerprint"], rule: row["rule"], app: row["app"],
                    session: row["session"], severity: row["severity"], ts: row["ts"], observed: row["observed"],
                    json: row["json"])
            }
        }
    }

    /// Rows stored.
    public func count() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM violations") ?? 0 }
    }
}
