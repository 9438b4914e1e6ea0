import HistoryStore

/// The history's tables in PostgreSQL (docs/postgresql.md), created and migrated by the daemon.
///
/// `modalwatch_schema_version` lists the versions applied. The migrations run in one transaction
/// under an advisory lock (`migrationLock`), so that daemons starting at once migrate once: the
/// others wait for the lock, then find every version applied.
///
/// Version 2 (`HistorySchema.version`; docs/spec/history.md): `modalwatch_violation_rows`, one row
/// a violation, and the view `modalwatch_violations` of every column, the SQLite file's in the
/// same order and meaning. `seq` numbers rows as
/// they are stored, whichever daemon stores them: newest first is `seq DESC`, the tie-break of
/// every page. `id` is unique: a retried batch (`INSERT … ON CONFLICT (id) DO NOTHING`) stores
/// nothing twice. The fields that are not written, the view reads from `json`. The
/// indexes are the command line's questions: an app, a rule, a session, newest first (`(app,
/// seq)`, `(rule, seq)`, `(session, seq)`); `--since` and retention by age (`observed`); a
/// report's event-time range (`ts`).
enum PostgresSchema {
    /// The version this release writes.
    static let currentVersion = HistorySchema.version
    /// The advisory lock (transaction level) held while migrating.
    static let migrationLock: Int64 = 0x6D77_6869_7374_0001
    /// The advisory lock (transaction level) held while applying the retention.
    static let retentionLock: Int64 = 0x6D77_6869_7374_0002

    /// The statements that make the current version in an empty database. (No release wrote an
    /// earlier version in PostgreSQL: the first that did, wrote this one.)
    static let schema = """
        CREATE TABLE modalwatch_violation_rows (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id text NOT NULL UNIQUE,
            ts bigint NOT NULL,
            observed bigint NOT NULL,
            rule text NOT NULL,
            severity text NOT NULL,
            app text NOT NULL,
            session text NOT NULL,
            fingerprint text NOT NULL,
            json text NOT NULL
        );
        CREATE INDEX modalwatch_violations_app ON modalwatch_violation_rows (app, seq);
        CREATE INDEX modalwatch_violations_rule ON modalwatch_violation_rows (rule, seq);
        CREATE INDEX modalwatch_violations_session ON modalwatch_violation_rows (session, seq);
        CREATE INDEX modalwatch_violations_observed ON modalwatch_violation_rows (observed);
        CREATE INDEX modalwatch_violations_ts ON modalwatch_violation_rows (ts);
        CREATE VIEW modalwatch_violations AS SELECT
            seq, id, ts, observed, rule, json::jsonb ->> 'module' AS module, severity,
            json::jsonb ->> 'edition' AS edition, app, session, json::jsonb ->> 'subject' AS subject,
            json::jsonb ->> 'locale' AS locale, fingerprint, json::jsonb ->> 'message' AS message,
            json::jsonb ->> 'suggestion' AS suggestion, json
        FROM modalwatch_violation_rows;
        """

    /// Creates the schema on `connection` at `currentVersion` in one step; returns the versions
    /// this call applied (none when another daemon did). Throws when the database holds another
    /// version.
    static func migrate(_ connection: PostgresConnection) throws(PostgresError) -> [Int] {
        do throws(PostgresError) {
            try connection.execute("BEGIN")
            try connection.execute("SELECT pg_advisory_xact_lock(\(migrationLock))")
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS modalwatch_schema_version (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """
            )
            let found = Int(
                try connection.execute("SELECT COALESCE(MAX(version), 0) FROM modalwatch_schema_version").int64(0, 0)
            )
            guard found <= currentVersion else {
                throw PostgresError(
                    "the database's modalwatch schema is version \(found), newer than this release's (\(currentVersion)); upgrade modalwatch"
                )
            }
            guard found == 0 || found == currentVersion else {
                throw PostgresError(
                    "the database's modalwatch schema is version \(found), which no release wrote; this release reads version \(currentVersion): drop modalwatch_violations and modalwatch_schema_version to start a new history"
                )
            }
            var applied: [Int] = []
            if found == 0 {
                try connection.execute(schema)
                try connection.execute(
                    "INSERT INTO modalwatch_schema_version (version) VALUES ($1)",
                    ["\(currentVersion)"]
                )
                applied.append(currentVersion)
            }
            try connection.execute("COMMIT")
            return applied
        } catch {
            connection.rollBack()
            throw error
        }
    }

    /// The version the database holds (0: no modalwatch schema).
    static func version(_ connection: PostgresConnection) throws(PostgresError) -> Int {
        let exists =
            try connection.execute("SELECT to_regclass('modalwatch_schema_version') IS NOT NULL").text(0, 0) == "t"
        guard exists else { return 0 }
        return Int(
            try connection.execute("SELECT COALESCE(MAX(version), 0) FROM modalwatch_schema_version").int64(0, 0)
        )
    }
}
