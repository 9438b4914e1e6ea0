import Foundation
public import HistoryStore
import Synchronization

/// The history store in PostgreSQL: every daemon's violations in one database
/// (`history: { store: postgresql, postgresql: CONNINFO }`), through one synchronous libpq
/// connection. The daemon's publishing thread owns a writer; the command line and the control
/// thread open readers.
///
/// A `write` is one transaction: its violations, as `ViolationWriter` hands them over, become
/// `COPY` rows (`CopyRows`) into a temporary table, then go into `modalwatch_violation_rows` in the
/// order handed over with `ON CONFLICT (id) DO NOTHING`: a retried batch, or one another daemon
/// stored, is kept once. The writer creates and migrates the schema (`PostgresSchema`). The
/// questions are the SQLite store's (`HistorySQL`), in PostgreSQL's words.
///
/// Sendable: the connection and the `COPY` rows are used only inside `lock`:
/// `nonisolated(unsafe)`, since a commit hands the rows, and a scan the connection's rows, to
/// the caller's closure, which the compiler cannot tie to the lock; the rest is `let`.
public final class PostgresHistory: HistoryStoring, Sendable {
    /// How long a connection attempt may take unless the connection string says otherwise.
    public static let defaultConnectTimeoutSeconds = 3
    /// How long one statement of the writer may run before the server cancels it (ms): the
    /// publishing thread never waits on a stuck server longer than this for one commit.
    public static let writerStatementTimeoutMs = 5_000
    /// How long the writer waits for the server in one call before it gives the connection up
    /// (ms): past the server's own statement timeout, for a server that stops answering at all.
    public static let writerDeadlineMs: Int64 = 7_000
    /// The same for a reader (the control socket's `violations`, the command line, the report).
    public static let readerDeadlineMs: Int64 = 5_000
    /// The same while a writer creates or migrates the schema at start (a migration may rewrite a table).
    static let migrationDeadlineMs: Int64 = 600_000
    /// Rows a reader fetches at a time while scanning (bounded memory).
    static let scanFetchRows = 5_000

    /// Used only inside `lock` (and by `init`, before the store is shared).
    nonisolated(unsafe) private let connection: PostgresConnection
    /// The writer's commit: used only inside `lock`.
    nonisolated(unsafe) private let copyRows = CopyRows()
    /// Held for each use of the connection.
    private let lock = Mutex(())
    /// The most one `prune` deletes: one short transaction.
    public let pruneSlice = 10_000
    private static let sql = HistorySQL.postgresql
    /// The schema versions this writer applied when it opened (none when already current).
    public let migrationsApplied: [Int]

    /// Connects with `conninfo`. A writer creates or migrates the schema and prepares its
    /// temporary table; a reader requires the schema to exist.
    public init(conninfo: String, writer: Bool, applicationName: String = "modalwatch") throws {
        connection = try PostgresConnection(
            conninfo: conninfo,
            connectTimeoutSeconds: Self.defaultConnectTimeoutSeconds,
            applicationName: applicationName,
            deadlineMs: Self.migrationDeadlineMs
        )
        if writer {
            migrationsApplied = try PostgresSchema.migrate(connection)
            connection.deadlineMs = Self.writerDeadlineMs
            try connection.execute("SET statement_timeout = \(Self.writerStatementTimeoutMs)")
            try connection.execute(
                """
                CREATE TEMPORARY TABLE modalwatch_incoming (
                    ord integer NOT NULL, id text NOT NULL, ts bigint NOT NULL, observed bigint NOT NULL,
                    rule text NOT NULL, severity text NOT NULL, app text NOT NULL, session text NOT NULL,
                    fingerprint text NOT NULL, json text NOT NULL
                ) ON COMMIT DELETE ROWS
                """
            )
        } else {
            connection.deadlineMs = Self.readerDeadlineMs
            migrationsApplied = []
            let version = try PostgresSchema.version(connection)
            guard version > 0 else {
                throw PostgresError(
                    "the database holds no modalwatch history (no modalwatch_schema_version table); a daemon with history.store: postgresql creates it"
                )
            }
            guard version == PostgresSchema.currentVersion else {
                throw PostgresError(
                    "the database's modalwatch schema is version \(version); this release reads version \(PostgresSchema.currentVersion)"
                )
            }
        }
    }

    /// Stores in one transaction whatever `body` hands over. Returns the number handed over.
    @discardableResult
    public func write(_ body: (inout ViolationWriter) throws -> Void) throws -> Int {
        try writeCounting(body).handed
    }

    /// Stores in one transaction whatever `body` hands over, as `write` does. Returns the number
    /// handed over and the number inserted: the others (an `id` the database holds) were already there.
    public func writeCounting(_ body: (inout ViolationWriter) throws -> Void) throws -> (handed: Int, inserted: Int) {
        try lock.withLock { _ throws in
            copyRows.reset()
            var writer = ViolationWriter(rows: copyRows)
            try body(&writer)
            let handed = writer.count
            guard handed > 0 else { return (handed, 0) }
            do {
                try connection.execute("BEGIN")
                try copyRows.bytes.withUnsafeBytes { data in
                    try connection.copyIn("COPY modalwatch_incoming FROM STDIN", data: data)
                }
                let inserted = try connection.execute(
                    """
                    INSERT INTO modalwatch_violation_rows (id, ts, observed, rule, severity, app, session, fingerprint, json)
                    SELECT id, ts, observed, rule, severity, app, session, fingerprint, json FROM modalwatch_incoming ORDER BY ord
                    ON CONFLICT (id) DO NOTHING
                    """
                ).affectedRows
                try connection.execute("COMMIT")
                return (handed, inserted)
            } catch {
                connection.rollBack()
                throw error
            }
        }
    }

    /// Deletes, oldest first and at most `pruneSlice` in one transaction, what was observed more
    /// than `maxAgeMs` before `now` and, past the newest `maxRows` sequence numbers, the oldest;
    /// once for the database: only the daemon that takes the retention's advisory lock does it;
    /// the others (which find it taken) delete nothing and return 0.
    @discardableResult
    public func prune(now: Int64, maxAgeMs: Int64?, maxRows: Int?) throws -> Int {
        guard maxAgeMs != nil || maxRows != nil else { return 0 }
        return try lock.withLock { _ throws in
            do {
                try connection.execute("BEGIN")
                guard
                    try connection.execute("SELECT pg_try_advisory_xact_lock(\(PostgresSchema.retentionLock))").text(
                        0,
                        0
                    ) == "t"
                else {
                    try connection.execute("COMMIT")
                    return 0
                }
                var deleted = 0
                if let maxAgeMs {
                    let cut = now.subtractingReportingOverflow(maxAgeMs).overflow ? Int64.min : now - maxAgeMs
                    deleted += try affected(run(Self.sql.deleteObserved(before: cut, slice: pruneSlice)))
                }
                if let maxRows, deleted < pruneSlice,
                    let newest = try connection.execute(Self.sql.newestSequence).text(0, 0).flatMap({ Int64($0) })
                {
                    let last = newest.subtractingReportingOverflow(Int64(max(0, maxRows))).partialValue
                    if last >= 1 {
                        deleted += try affected(
                            run(Self.sql.deleteSequences(through: last, slice: pruneSlice - deleted))
                        )
                    }
                }
                try connection.execute("COMMIT")
                return deleted
            } catch {
                connection.rollBack()
                throw error
            }
        }
    }

    /// Runs one of `HistorySQL`'s statements (inside `lock`).
    private func run(_ statement: HistorySQL.Statement) throws(PostgresError) -> PostgresResult {
        try connection.execute(statement.sql, Self.parameters(statement))
    }

    private static func parameters(_ statement: HistorySQL.Statement) -> [String?] {
        statement.arguments.map { argument in
            switch argument {
            case .text(let text): text
            case .integer(let value): String(value)
            }
        }
    }

    private func affected(_ result: PostgresResult) -> Int { result.affectedRows }

    /// Violations matching `query`, newest first.
    public func find(_ query: HistoryQuery) throws -> [StoredViolation] {
        try findPage(query, after: nil, maxBytes: .max).rows
    }

    /// Violations matching `query` after `cursor` (nil: from the newest), newest first: at most
    /// `query.limit` rows and, past the first row, `maxBytes` of JSON. The cursor's `rowid` is `seq`.
    public func findPage(_ query: HistoryQuery, after cursor: HistoryPage.Cursor?, maxBytes: Int) throws -> HistoryPage
    {
        let statement = Self.sql.page(query, after: cursor)
        return try lock.withLock { _ throws in
            let result = try run(statement)
            var page = HistoryPage(rows: [], next: nil)
            var bytes = 0
            var last: HistoryPage.Cursor?
            for row in 0..<result.rows {
                let json = result.text(row, 9) ?? ""
                if !page.rows.isEmpty && bytes + json.utf8.count > maxBytes {
                    page.next = last
                    return page
                }
                bytes += json.utf8.count
                let violation = StoredViolation(
                    id: result.text(row, 1) ?? "",
                    fingerprint: result.text(row, 2) ?? "",
                    rule: result.text(row, 3) ?? "",
                    app: result.text(row, 4) ?? "",
                    session: result.text(row, 5) ?? "",
                    severity: result.text(row, 6) ?? "",
                    ts: result.int64(row, 7),
                    observed: result.int64(row, 8),
                    json: json,
                    seq: result.int64(row, 0)
                )
                page.rows.append(violation)
                last = HistoryPage.Cursor(observed: violation.observed, rowid: result.int64(row, 0))
            }
            if query.limit > 0 && page.rows.count == query.limit { page.next = last }
            return page
        }
    }

    /// Every violation of `app` (all when nil) with event time in `[sinceTs, untilTs)`, through a
    /// server-side cursor `scanFetchRows` at a time: memory stays flat.
    public func scan(
        app: String?,
        sinceTs: Int64?,
        untilTs: Int64?,
        _ body: (ScannedViolation, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let statement = Self.sql.scan(app: app, sinceTs: sinceTs, untilTs: untilTs)
        return try lock.withLock { _ throws in
            do {
                try connection.execute("BEGIN READ ONLY")
                try connection.execute(
                    "DECLARE modalwatch_scan NO SCROLL CURSOR FOR \(statement.sql)",
                    Self.parameters(statement)
                )
                while true {
                    let result = try connection.execute("FETCH \(Self.scanFetchRows) FROM modalwatch_scan")
                    guard result.rows > 0 else { break }
                    for row in 0..<result.rows {
                        let violation = ScannedViolation(
                            rule: result.text(row, 0) ?? "",
                            app: result.text(row, 1) ?? "",
                            session: result.text(row, 2) ?? "",
                            severity: result.text(row, 3) ?? "",
                            ts: result.int64(row, 4)
                        )
                        try body(violation, result.bytes(row, 5))
                    }
                }
                try connection.execute("COMMIT")
            } catch {
                connection.rollBack()
                throw error
            }
        }
    }

    /// Violations stored.
    public func count() throws -> Int {
        try lock.withLock { _ throws in
            Int(try connection.execute(Self.sql.count).int64(0, 0))
        }
    }
}
