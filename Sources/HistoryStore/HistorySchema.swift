/// The history's schema (docs/spec/history.md): one row a violation, its fields as columns, in
/// SQLite and in PostgreSQL alike: a table of the written columns and a view of every column.
/// This is the SQLite file's; `PostgresSchema` has the same, in PostgreSQL's words.
public enum HistorySchema {
    /// The schema version this release writes: `PRAGMA user_version` of the SQLite file, the
    /// newest row of `modalwatch_schema_version` in PostgreSQL.
    public static let version = 2
    /// The version of 0.1.0's SQLite file (GRDB's migrations `v1` to `v4`, `user_version` 0): the one
    /// older format a release wrote, converted at the first start (`ViolationHistory+Conversion`).
    public static let releasedVersion = 1

    /// The columns of a violation's row, in order, in both stores: those of the view
    /// (`violations`; `modalwatch_violations` in PostgreSQL). The table beneath it holds
    /// `writtenColumns`; the view reads the others from `json`, so they never disagree with what
    /// was published, and the writer pays nothing for them.
    public static let columns = [
        "seq", "id", "ts", "observed", "rule", "module", "severity", "edition", "app", "session",
        "subject", "locale", "fingerprint", "message", "suggestion", "json",
    ]

    /// The columns the writer writes, in the table's order.
    public static let writtenColumns = [
        "seq", "id", "ts", "observed", "rule", "severity", "app", "session", "fingerprint", "json",
    ]

    /// The SQLite table beneath the view.
    public static let sqliteTableName = "violation_rows"

    /// The SQLite table, its indexes and the view of version 2 (docs/spec/history.md explains each).
    ///
    /// `seq` is the rowid: the table grows at its end, and SQLite appends the rowid to every index
    /// key, so `violations_app` is `(app, seq)`, and a new row goes at the end of its app's, its
    /// rule's and the clock's run. `AUTOINCREMENT`: a sequence number is never given twice, even
    /// after the retention emptied the table. `(observed, id)` keeps a violation handed over again
    /// as it was stored once (the spool's write-back, a retried commit: the same record, the same
    /// `observed`), serves `--since` and the retention by age, and grows with the daemon's clock:
    /// a key of the event time (`ts`, which each device's clock sets, out of order across
    /// sessions) or of the random `id` would take new rows on pages all over the index. Sessions
    /// are many and their ids random: `violations_session` is cut in buckets of 4,096 sequence
    /// numbers (`seq >> 12, session`), so that new rows go into the newest bucket's few dozen
    /// pages instead of each onto a random page of an index over every row; a session's rows are
    /// found with one seek a bucket, newest first (`WHERE seq >> 12 = B AND session = S`). The
    /// fields of the view are not generated columns of the table: SQLite computes generated
    /// columns, virtual ones too, on every insert (a third of the writer's cost).
    static let sqliteTable = """
        CREATE TABLE violation_rows (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL,
            ts INTEGER NOT NULL,
            observed INTEGER NOT NULL,
            rule TEXT NOT NULL,
            severity TEXT NOT NULL,
            app TEXT NOT NULL,
            session TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            json TEXT NOT NULL
        );
        CREATE UNIQUE INDEX violations_key ON violation_rows (observed, id);
        CREATE INDEX violations_app ON violation_rows (app);
        CREATE INDEX violations_rule ON violation_rows (rule);
        CREATE INDEX violations_session ON violation_rows (seq >> 12, session);
        CREATE VIEW violations AS SELECT
            seq, id, ts, observed, rule, json_extract(json, '$.module') AS module, severity,
            json_extract(json, '$.edition') AS edition, app, session, json_extract(json, '$.subject') AS subject,
            json_extract(json, '$.locale') AS locale, fingerprint, json_extract(json, '$.message') AS message,
            json_extract(json, '$.suggestion') AS suggestion, json
        FROM violation_rows;
        """

    /// The bucket of `violations_session`: `seq >> 12`.
    public static let sessionBucketShift: Int64 = 12

    /// The table a 0.1.0 file's rows wait in while they are converted.
    static let releasedTable = "violations_v1"
    /// The indexes of a 0.1.0 file's `violations` table, dropped before it is set aside.
    static let releasedIndexes = [
        "violations_key", "violations_observed", "violations_app", "violations_rule", "violations_session",
    ]
    /// GRDB's migrations a 0.1.0 file has applied, exactly.
    static let releasedMigrations: Set<String> = ["v1", "v2", "v3", "v4"]
    /// The columns of a 0.1.0 file's `violations` table (ids and fingerprints as BLOBs).
    static let releasedColumns: Set<String> = [
        "seq", "id", "fingerprint", "rule", "app", "session", "severity", "ts", "observed", "json",
    ]
}
