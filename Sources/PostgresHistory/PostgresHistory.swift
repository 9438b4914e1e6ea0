import Foundation
public import HistoryStore
import Synchronization

/// The history store in PostgreSQL: every daemon's violations in one database
/// (`history: { store: postgresql, postgresql: CONNINFO }`), through one synchronous libpq
/// connection. The daemon's publishing thread owns a writer; the command line and the control
/// thread open readers.
///
/// A `write` is one transaction: its violations, collected as `ViolationWriter` hands them over
/// (`SegmentBuilder`: a replay within the commit or of one stored lately is left out there), go
/// by `COPY` into a temporary table, then into `modalwatch_violations` in the order handed over
/// with `ON CONFLICT (id) DO NOTHING`: a retried batch, or one another daemon stored, is kept
/// once. The writer creates and migrates the schema (`PostgresSchema`).
///
/// Sendable: the connection and the segment are used only inside `lock` (which holds the
/// `COPY` buffer): `nonisolated(unsafe)`, since a commit hands the segment, and a scan the
/// connection's rows, to the caller's closure, which the compiler cannot tie to the lock; the
/// rest is `let`.
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
    nonisolated(unsafe) private let segment = SegmentBuilder()
    /// Held for each use of the connection; holds the `COPY` rows of the commit being written.
    private let lock = Mutex<[UInt8]>([])
    /// The schema versions this writer applied when it opened (none when already current).
    public let migrationsApplied: [Int]

    /// Connects with `conninfo`. A writer creates or migrates the schema and prepares its
    /// temporary table; a reader requires the schema to exist.
    public init(conninfo: String, writer: Bool, applicationName: String = "modalwatch") throws {
        connection = try PostgresConnection(
            conninfo: conninfo, connectTimeoutSeconds: Self.defaultConnectTimeoutSeconds, applicationName: applicationName,
            deadlineMs: Self.migrationDeadlineMs)
        if writer {
            migrationsApplied = try PostgresSchema.migrate(connection)
            connection.deadlineMs = Self.writerDeadlineMs
            try connection.execute("SET statement_timeout = \(Self.writerStatementTimeoutMs)")
            try connection.execute("""
                CREATE TEMPORARY TABLE modalwatch_incoming (
                    ord integer NOT NULL, id text NOT NULL, fingerprint text NOT NULL, rule text NOT NULL,
                    app text NOT NULL, session text NOT NULL, severity text NOT NULL, ts bigint NOT NULL,
                    observed bigint NOT NULL, json text NOT NULL
                ) ON COMMIT DELETE ROWS
                """)
            lock.withLock { $0.reserveCapacity(1 << 16) }
        } else {
            connection.deadlineMs = Self.readerDeadlineMs
            migrationsApplied = []
            let version = try PostgresSchema.version(connection)
            guard version > 0 else {
                throw PostgresError("the database holds no modalwatch history (no modalwatch_schema_version table); a daemon with history.store: postgresql creates it")
            }
            guard version <= PostgresSchema.currentVersion else {
                throw PostgresError("the database's modalwatch schema is version \(version), newer than this release's (\(PostgresSchema.currentVersion)); upgrade modalwatch")
            }
        }
    }

    /// Stores in one transaction whatever `body` hands over. Returns the number handed over.
    @discardableResult
    public func write(_ body: (inout ViolationWriter) throws -> Void) throws -> Int {
        return try lock.withLock { copyBuffer throws in
            segment.reset()
            var writer = ViolationWriter(segment: segment)
            try body(&writer)
            let handed = writer.count
            guard segment.count > 0 else { return handed }
            encodeSegment(into: &copyBuffer)
            do {
                try connection.execute("BEGIN")
                try copyBuffer.withUnsafeBytes { data in
                    try connection.copyIn("COPY modalwatch_incoming FROM STDIN", data: data)
                }
                try connection.execute("""
                    INSERT INTO modalwatch_violations (id, fingerprint, rule, app, session, severity, ts, observed, json)
                    SELECT id, fingerprint, rule, app, session, severity, ts, observed, json FROM modalwatch_incoming ORDER BY ord
                    ON CONFLICT (id) DO NOTHING
                    """)
                try connection.execute("COMMIT")
            } catch {
                connection.rollBack()
                throw error
            }
            segment.committed()
            return handed
        }
    }

    /// The segment's records as `COPY` rows of `modalwatch_incoming`, into `copyBuffer`.
    private func encodeSegment(into copyBuffer: inout [UInt8]) {
        copyBuffer.removeAll(keepingCapacity: true)
        segment.withBytes { bytes in
            var ord: Int64 = 0
            for record in SegmentRecords(bytes) {
                CopyText.appendField(ord, to: &copyBuffer)
                CopyText.endField(&copyBuffer)
                CopyText.appendHex(record.idHigh, to: &copyBuffer)
                CopyText.appendHex(record.idLow, to: &copyBuffer)
                CopyText.endField(&copyBuffer)
                CopyText.appendHex(record.fingerprint, to: &copyBuffer)
                for text in [record.rule, record.app, record.session, record.severity] {
                    CopyText.endField(&copyBuffer)
                    CopyText.appendField(text, to: &copyBuffer)
                }
                CopyText.endField(&copyBuffer)
                CopyText.appendField(record.ts, to: &copyBuffer)
                CopyText.endField(&copyBuffer)
                CopyText.appendField(record.observed, to: &copyBuffer)
                CopyText.endField(&copyBuffer)
                CopyText.appendField(record.json, to: &copyBuffer)
                CopyText.endRow(&copyBuffer)
                ord += 1
            }
        }
    }

    /// Deletes what was observed more than `maxAgeMs` before `now` and, past `maxRows`, the
    /// oldest, once for the database: only the daemon that takes the retention's advisory lock
    /// does it; the others (which find it taken) delete nothing and return 0.
    @discardableResult
    public func prune(now: Int64, maxAgeMs: Int64?, maxRows: Int?) throws -> Int {
        guard maxAgeMs != nil || maxRows != nil else { return 0 }
        return try lock.withLock { _ throws in
            do {
                try connection.execute("BEGIN")
                guard try connection.execute("SELECT pg_try_advisory_xact_lock(\(PostgresSchema.retentionLock))").text(0, 0) == "t" else {
                    try connection.execute("COMMIT")
                    return 0
                }
                var deleted = 0
                if let maxAgeMs {
                    let cut = now.subtractingReportingOverflow(maxAgeMs).overflow ? Int64.min : now - maxAgeMs
                    deleted += try affected(connection.execute("DELETE FROM modalwatch_violations WHERE observed < $1", ["\(cut)"]))
                }
                if let maxRows {
                    // The oldest row kept is the `maxRows`-th newest; everything older goes.
                    deleted += try affected(connection.execute("""
                        DELETE FROM modalwatch_violations
                        WHERE seq < (SELECT seq FROM modalwatch_violations ORDER BY seq DESC OFFSET $1 LIMIT 1)
                        """, ["\(max(0, maxRows - 1))"]))
                }
                try connection.execute("COMMIT")
                return deleted
            } catch {
                connection.rollBack()
                throw error
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
    public func findPage(_ query: HistoryQuery, after cursor: HistoryPage.Cursor?, maxBytes: Int) throws -> HistoryPage {
        let limit = max(0, query.limit)
        guard limit > 0 else { return HistoryPage(rows: [], next: nil) }
        var clauses: [String] = []
        var parameters: [String?] = []
        func add(_ clause: String, _ value: String) {
            parameters.append(value)
            clauses.append(clause.replacingOccurrences(of: "?", with: "$\(parameters.count)"))
        }
        if let app = query.app { add("app = ?", app) }
        if let rule = query.rule { add("rule = ?", rule) }
        if let session = query.session { add("session = ?", session) }
        if let since = query.sinceObserved { add("observed >= ?", "\(since)") }
        if let cursor { add("seq < ?", "\(cursor.rowid)") }
        let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        parameters.append("\(limit)")
        return try lock.withLock { _ throws in
            let result = try connection.execute("""
                SELECT seq, id, fingerprint, rule, app, session, severity, ts, observed, json
                FROM modalwatch_violations \(filter) ORDER BY seq DESC LIMIT $\(parameters.count)
                """, parameters)
            var page = HistoryPage(rows: [], next: nil)
            var bytes = 0
            var last: HistoryPage.Cursor?
            var cut = false
            for row in 0..<result.rows {
                let json = result.text(row, 9) ?? ""
                if !page.rows.isEmpty && bytes + json.utf8.count > maxBytes {
                    cut = true
                    break
                }
                bytes += json.utf8.count
                let violation = StoredViolation(
                    id: result.text(row, 1) ?? "", fingerprint: result.text(row, 2) ?? "", rule: result.text(row, 3) ?? "",
                    app: result.text(row, 4) ?? "", session: result.text(row, 5) ?? "", severity: result.text(row, 6) ?? "",
                    ts: result.int64(row, 7), observed: result.int64(row, 8), json: json)
                page.rows.append(violation)
                last = HistoryPage.Cursor(observed: violation.observed, rowid: result.int64(row, 0))
            }
            if cut || page.rows.count == limit { page.next = last }
            return page
        }
    }

    /// Every violation of `app` (all when nil) with event time in `[sinceTs, untilTs)`, through a
    /// server-side cursor `scanFetchRows` at a time: memory stays flat.
    public func scan(app: String?, sinceTs: Int64?, untilTs: Int64?,
                     _ body: (ViolationHistory.ScannedViolation, UnsafeRawBufferPointer) throws -> Void) throws {
        var clauses: [String] = []
        var parameters: [String?] = []
        if let app { parameters.append(app); clauses.append("app = $\(parameters.count)") }
        if let sinceTs { parameters.append("\(sinceTs)"); clauses.append("ts >= $\(parameters.count)") }
        if let untilTs { parameters.append("\(untilTs)"); clauses.append("ts < $\(parameters.count)") }
        let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        return try lock.withLock { _ throws in
            do {
                try connection.execute("BEGIN READ ONLY")
                try connection.execute("""
                    DECLARE modalwatch_scan NO SCROLL CURSOR FOR
                    SELECT rule, app, session, severity, ts, json FROM modalwatch_violations \(filter)
                    """, parameters)
                while true {
                    let result = try connection.execute("FETCH \(Self.scanFetchRows) FROM modalwatch_scan")
                    guard result.rows > 0 else { break }
                    for row in 0..<result.rows {
                        let violation = ViolationHistory.ScannedViolation(
                            rule: result.text(row, 0) ?? "", app: result.text(row, 1) ?? "", session: result.text(row, 2) ?? "",
                            severity: result.text(row, 3) ?? "", ts: result.int64(row, 4))
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
        return try lock.withLock { _ throws in
            return Int(try connection.execute("SELECT COUNT(*) FROM modalwatch_violations").int64(0, 0))
        }
    }
}
