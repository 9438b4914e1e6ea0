/// The history's schema (docs/spec/history.md): one row a violation, its fields as columns, in
/// SQLite and in PostgreSQL alike. This is the SQLite file's; `PostgresSchema` has the same
/// columns, in the same order, in PostgreSQL's words.
public enum HistorySchema {
    /// The schema version this release writes: `PRAGMA user_version` of the SQLite file, the
    /// newest row of `modalwatch_schema_version` in PostgreSQL.
    public static let version = 2
    /// The version of 0.1.0's SQLite file (GRDB's migrations `v1` to `v4`, `user_version` 0): the one
    /// older format a release wrote, converted at the first start (`ViolationHistory+Conversion`).
    public static let releasedVersion = 1

    /// The columns of a violation's row, in order, in both stores. The first ten are written; the
    /// others are generated from `json`, so they never disagree with what was published.
    public static let columns = [
        "seq", "id", "ts", "observed", "rule", "module", "severity", "edition", "app", "session",
        "subject", "locale", "fingerprint", "message", "suggestion", "json",
    ]

    /// The fields of the published JSON that generated columns hold (the column's name is the field's).
    public static let generatedColumns = ["module", "edition", "subject", "locale", "message", "suggestion"]

    /// The SQLite table and indexes of version 2 (docs/spec/history.md explains each).
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
    /// found with one seek a bucket, newest first (`WHERE seq >> 12 = B AND session = S`).
    static let sqliteTable = """
        CREATE TABLE violations (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL,
            ts INTEGER NOT NULL,
            observed INTEGER NOT NULL,
            rule TEXT NOT NULL,
            module TEXT GENERATED ALWAYS AS (json_extract(json, '$.module')) VIRTUAL,
            severity TEXT NOT NULL,
            edition TEXT GENERATED ALWAYS AS (json_extract(json, '$.edition')) VIRTUAL,
            app TEXT NOT NULL,
            session TEXT NOT NULL,
            subject TEXT GENERATED ALWAYS AS (json_extract(json, '$.subject')) VIRTUAL,
            locale TEXT GENERATED ALWAYS AS (json_extract(json, '$.locale')) VIRTUAL,
            fingerprint TEXT NOT NULL,
            message TEXT GENERATED ALWAYS AS (json_extract(json, '$.message')) VIRTUAL,
            suggestion TEXT GENERATED ALWAYS AS (json_extract(json, '$.suggestion')) VIRTUAL,
            json TEXT NOT NULL
        );
        CREATE UNIQUE INDEX violations_key ON violations (observed, id);
        CREATE INDEX violations_app ON violations (app);
        CREATE INDEX violations_rule ON violations (rule);
        CREATE INDEX violations_session ON violations (seq >> 12, session);
        """

    /// The bucket of `violations_session`: `seq >> 12`.
    public static let sessionBucketShift: Int64 = 12

    /// The table a 0.1.0 file's rows wait in while they are converted.
    static let releasedTable = "violations_v1"
    /// The indexes of a 0.1.0 file's `violations` table, dropped before it is set aside.
    static let releasedIndexes = ["violations_key", "violations_observed", "violations_app", "violations_rule", "violations_session"]
    /// GRDB's migrations a 0.1.0 file has applied, exactly.
    static let releasedMigrations: Set<String> = ["v1", "v2", "v3", "v4"]
    /// The columns of a 0.1.0 file's `violations` table (ids and fingerprints as BLOBs).
    static let releasedColumns: Set<String> = ["seq", "id", "fingerprint", "rule", "app", "session", "severity", "ts", "observed", "json"]
}
