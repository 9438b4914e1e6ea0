import GRDB
public import HistoryStore

/// History files as earlier releases wrote them, for the tests of their conversion. The schema SQL
/// is the migrator's own (`ViolationHistory.schemaV1`); the end-to-end tests read the same text out of
/// `Sources/HistoryStore/ViolationHistory.swift` (`e2e_support.history_schema_v1`).
public enum HistoryFixtures: Sendable {
    /// The v1 table and indexes, exactly as the first release created them (ids and fingerprints as hex TEXT).
    public static var schemaV1: String { ViolationHistory.schemaV1 }

    /// Writes a v1 file at `path` (WAL, GRDB's migration table at `v1`) holding `rows`, inserted the way
    /// the first release inserted them (hex TEXT, `INSERT OR IGNORE`).
    public static func makeVersion1(at path: String, rows: [StoredViolation]) throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: schemaV1) }
        try migrator.migrate(queue)
        try queue.write { db in
            for row in rows {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO violations (id, fingerprint, rule, app, session, severity, ts, observed, json)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [row.id, row.fingerprint, row.rule, row.app, row.session, row.severity, row.ts, row.observed, row.json])
            }
        }
        try queue.close()
    }
}
