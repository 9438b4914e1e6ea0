import ByteBasics
import Foundation
import GRDB
import GRDBSQLite

/// The history store in SQLite: every violation the daemon publishes, written first, one row a
/// violation (`HistorySchema`, docs/spec/history.md) in an SQLite file in the state directory
/// (WAL: a commit survives the process being killed). Any SQLite client reads it. The daemon
/// writes from one thread; readers may open the same file read-only at any time.
///
/// A `write` is one transaction of prepared inserts (`SQLiteRows`), each bound from the caller's
/// bytes. Every use of the connection goes through GRDB's queue, which serializes them.
public final class ViolationHistory: HistoryStoring, Sendable {
    /// The file name inside the state directory.
    public static let fileName = "history.sqlite"
    /// The page size of a file this store creates.
    static let pageSize = 4096
    /// Violations one `prune` call deletes at most: one short transaction (docs/RELIABILITY.md,
    /// "Retention"), so that the writer is never held long; the publishing thread calls again at
    /// once while a call deleted this many.
    public let pruneSlice = 500
    /// The largest sequence number a history holds: 2^62, so that a sequence number plus any
    /// count of rows never overflows. Cursors naming one outside `1...maxSequence` are refused.
    public static let maxSequence: Int64 = 1 << 62
    /// The statements, in SQLite's words.
    static let sql = HistorySQL.sqlite

    let database: DatabaseQueue
    /// The file.
    public let path: String

    /// Opens the store at `path`; a writer (`readOnly` false) creates it at the current version
    /// in one step, or converts 0.1.0's file (`HistorySchema.releasedVersion`) before it returns,
    /// about `conversionSlice` violations a transaction, telling `progress` after each slice. Any
    /// other version is refused in one line that names it. With `checkpointsElsewhere`, this
    /// connection never checkpoints the WAL itself: a `HistoryCheckpointer` does, so that no
    /// commit waits for a checkpoint. A statement that finds the file locked by another
    /// connection waits `busyTimeout` seconds at most, then fails (`SQLITE_BUSY`). With
    /// `walSizeLimit`, a WAL that a checkpoint starts over is cut back to that many bytes.
    public init(
        path: String,
        readOnly: Bool = false,
        checkpointsElsewhere: Bool = false,
        busyTimeout: Double = 2,
        walSizeLimit: Int? = nil,
        conversionSlice: Int = 50_000,
        progress: (ConversionProgress) throws -> Void = { _ in }
    ) throws {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.label = "modalwatch.history"
        if !readOnly {
            configuration.journalMode = .wal
            configuration.prepareDatabase { db in
                // 4 KiB pages for a new file (an existing one keeps its own), set before the schema.
                try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
                // WAL + NORMAL: a commit is in the WAL file before it returns; a killed
                // process loses nothing committed (only a power loss can cost the last ones).
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                try db.execute(sql: "PRAGMA cache_size = -16384")
                try db.execute(
                    sql: checkpointsElsewhere ? "PRAGMA wal_autocheckpoint = 0" : "PRAGMA wal_autocheckpoint = 16384"
                )
                if let walSizeLimit { try db.execute(sql: "PRAGMA journal_size_limit = \(walSizeLimit)") }
            }
        }
        // SQLite's busy timeout sleeps 1, 2, 5, 10 ms… between tries: a commit that meets the
        // checkpointer's RESTART (which holds the writer off well under a millisecond) would wait
        // several ms for nothing. So: tries every 50 µs for the first 10 ms, then every
        // millisecond, `busyTimeout` in all.
        let fineTries = 200
        let coarseTries = max(0, Int(busyTimeout * 1000) - 10)
        configuration.busyMode = .callback { tries in
            guard tries < fineTries + coarseTries else { return false }
            usleep(tries < fineTries ? 50 : 1000)
            return true
        }
        if readOnly {
            database = try DatabaseQueue(path: path, configuration: configuration)
            switch try database.read({ db in try HistoryFileVersion(db) }) {
            case .current, .empty: break
            case .released:
                throw HistoryStoreError(
                    "the history \(path) is 0.1.0's (schema version \(HistorySchema.releasedVersion)): the daemon converts it at its first start"
                )
            case .unsupported(let what): throw HistoryStoreError("the history \(path) \(what)")
            }
            return
        }
        // A writer reads the version before its connection turns WAL on: a file this release
        // refuses is left as it was.
        let found = try Self.version(ofFileAt: path, busyTimeout: busyTimeout)
        if case .unsupported(let what) = found { throw HistoryStoreError("the history \(path) \(what)") }
        database = try DatabaseQueue(path: path, configuration: configuration)
        switch found {
        case .empty: try database.write { db in try Self.create(db) }
        case .released: try database.write { db in try Self.setReleasedRowsAside(db) }
        case .current, .unsupported: break
        }
        try convertReleasedRows(slice: conversionSlice, progress: progress)
    }

    /// What the file at `path` holds (`.empty` when there is none yet), read on a read-only
    /// connection of its own.
    private static func version(ofFileAt path: String, busyTimeout: Double) throws -> HistoryFileVersion {
        guard ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)??.intValue ?? 0) > 0 else {
            return .empty
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "modalwatch.history.version"
        configuration.busyMode = .timeout(busyTimeout)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try HistoryFileVersion(db) }
    }

    /// A new file: the current schema, in one transaction.
    private static func create(_ db: Database) throws {
        try db.execute(sql: HistorySchema.sqliteTable)
        try db.execute(sql: "PRAGMA user_version = \(HistorySchema.version)")
    }

    private static let insertSQL = """
        INSERT OR IGNORE INTO \(sql.table) (id, ts, observed, rule, severity, app, session, fingerprint, json)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
        """
    private static let beginSQL = "BEGIN IMMEDIATE"
    private static let commitSQL = "COMMIT"

    /// Writes in one transaction whatever `body` inserts through the writer it is given (which
    /// must not outlive the call), each row as it is handed over. Returns the number of
    /// violations handed to it. A violation already stored (the same id and `observed`: the same record handed over again) is
    /// kept once. When `body` throws, nothing of it is written.
    @discardableResult
    public func write(_ body: (inout ViolationWriter) throws -> Void) throws -> Int {
        try database.writeWithoutTransaction { db in
            let rows = try SQLiteRows(
                db,
                insert: db.cachedStatement(sql: Self.insertSQL),
                begin: db.cachedStatement(sql: Self.beginSQL)
            )
            var writer = ViolationWriter(rows: rows)
            do {
                try body(&writer)
                // The transaction began with the first row: a call that hands nothing writes nothing.
                if rows.begun { try Self.run(db.cachedStatement(sql: Self.commitSQL), db) }
            } catch {
                if let connection = db.sqliteConnection, sqlite3_get_autocommit(connection) == 0 {
                    try? db.execute(sql: "ROLLBACK")
                }
                throw error
            }
            return writer.count
        }
    }

    /// The ids of the violations observed at `since` (the daemon's clock, ms) or later, the
    /// newest `limit` of them: a range of `violations_key`, read without the table.
    public func ids(observedSince since: Int64, limit: Int) throws -> [ViolationID] {
        try database.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT id FROM \(Self.sql.table) WHERE observed >= ? ORDER BY observed DESC LIMIT ?",
                arguments: [since, max(0, limit)]
            ).compactMap(ViolationID.init(hex:))
        }
    }

    /// Steps a statement without rows (BEGIN, COMMIT) on SQLite's C API.
    static func run(_ statement: Statement, _ db: Database) throws {
        let code = sqlite3_step(statement.sqliteStatement)
        sqlite3_reset(statement.sqliteStatement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: db.lastErrorMessage,
                sql: statement.sql
            )
        }
    }

    /// A TRUNCATE checkpoint: copies the WAL into the file and gives the WAL's blocks back to
    /// the file system (it fails while a reader still needs the WAL; nothing is lost then).
    public func checkpointTruncating() throws {
        try database.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }

    /// Deletes, in one transaction of at most `pruneSlice` violations, the oldest of those
    /// observed more than `maxAgeMs` before `now` and, past the newest `maxRows` sequence
    /// numbers, the oldest. Returns violations deleted: `pruneSlice` says more may be left.
    @discardableResult
    public func prune(now: Int64, maxAgeMs: Int64?, maxRows: Int?) throws -> Int {
        guard maxAgeMs != nil || maxRows != nil else { return 0 }
        return try database.write { db in
            var deleted = 0
            if let maxAgeMs {
                let cut = now.subtractingReportingOverflow(maxAgeMs).overflow ? Int64.min : now - maxAgeMs
                try Self.execute(Self.sql.deleteObserved(before: cut, slice: pruneSlice), in: db)
                deleted += db.changesCount
            }
            if let maxRows, deleted < pruneSlice, let newest = try Int64.fetchOne(db, sql: Self.sql.newestSequence) {
                let last = newest.subtractingReportingOverflow(Int64(max(0, maxRows))).partialValue
                if last >= 1 {
                    try Self.execute(Self.sql.deleteSequences(through: last, slice: pruneSlice - deleted), in: db)
                    deleted += db.changesCount
                }
            }
            return deleted
        }
    }

    /// Violations matching `query`, newest first, ids and fingerprints as lowercase hex.
    public func find(_ query: HistoryQuery) throws -> [StoredViolation] {
        try findPage(query, after: nil, maxBytes: .max).rows
    }

    /// Violations matching `query` after `cursor` (nil: from the newest), newest first: at most
    /// `query.limit` rows and, past the first row, at most `maxBytes` of their JSON. `next` is set
    /// when more may match, so that a large answer comes in pages of a bounded size.
    public func findPage(_ query: HistoryQuery, after cursor: HistoryPage.Cursor?, maxBytes: Int) throws -> HistoryPage
    {
        try database.read { db in
            var page = HistoryPage(rows: [], next: nil)
            var bytes = 0
            var last: HistoryPage.Cursor?
            var cut = false
            try Self.visit(query, after: cursor, in: db) { row in
                let violation = Self.storedViolation(row)
                if !page.rows.isEmpty && bytes + violation.json.utf8.count > maxBytes {
                    cut = true
                    return false
                }
                bytes += violation.json.utf8.count
                page.rows.append(violation)
                last = HistoryPage.Cursor(observed: violation.observed, rowid: row[0])
                return page.rows.count < query.limit
            }
            // Cut by bytes, or as many rows as asked: more may follow. Fewer: the matches ended.
            if cut || (query.limit > 0 && page.rows.count == query.limit) { page.next = last }
            return page
        }
    }

    /// At most `limit` violations stored after sequence number `seq` (0: from the oldest), oldest
    /// first: one page of the whole history in storing order. The last row's `seq` is where the
    /// next page starts; fewer than `limit` rows end the history.
    public func oldestFirst(after seq: Int64, limit: Int) throws -> [StoredViolation] {
        try database.read { db in
            let statement = Self.sql.oldestFirst(after: seq, limit: limit)
            return try Row.fetchAll(db, sql: statement.sql, arguments: Self.arguments(statement)).map(
                Self.storedViolation
            )
        }
    }

    /// Runs `body` on the rows matching `query` after `cursor`, newest first, until it returns
    /// false or `query.limit` rows were given. `--since` is a sequence bound (`firstSequence`). A
    /// session's rows are read bucket by bucket, newest first (`HistorySchema.sessionBucketShift`):
    /// one seek of `violations_session` a bucket.
    private static func visit(
        _ query: HistoryQuery,
        after cursor: HistoryPage.Cursor?,
        in db: Database,
        _ body: (Row) throws -> Bool
    ) throws {
        guard query.limit > 0 else { return }
        let floor = try query.sinceObserved.map { try firstSequence(observedAtLeast: $0, in: db) }
        guard query.session != nil else {
            let statement = sql.page(query, after: cursor, seqFloor: floor)
            let rows = try Row.fetchCursor(db, sql: statement.sql, arguments: arguments(statement))
            while let row = try rows.next() { guard try body(row) else { return } }
            return
        }
        guard let (oldest, newest) = try sequenceRange(in: db) else { return }
        let shift = HistorySchema.sessionBucketShift
        let top = min(newest, (cursor?.rowid ?? .max) - 1) >> shift
        let bottom = max(oldest, floor ?? oldest) >> shift
        var left = query.limit
        var bucket = top
        while bucket >= bottom && left > 0 {
            var slice = query
            slice.limit = left
            // One statement for every bucket, prepared once: only its arguments change.
            let statement = sql.page(slice, after: cursor, seqFloor: floor, sessionBucket: bucket)
            let rows = try Row.fetchCursor(db.cachedStatement(sql: statement.sql), arguments: arguments(statement))
            while let row = try rows.next() {
                guard try body(row) else { return }
                left -= 1
            }
            bucket -= 1
        }
    }

    /// Every stored violation of `app` (all when nil) with event time in `[sinceTs, untilTs)`, in
    /// no particular order, one at a time through `body` with its JSON as stored (the bytes are
    /// valid only during the call): memory stays flat however many violations there are.
    public func scan(
        app: String? = nil,
        sinceTs: Int64? = nil,
        untilTs: Int64? = nil,
        _ body: (ScannedViolation, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try database.read { db in
            let statement = Self.sql.scan(app: app, sinceTs: sinceTs, untilTs: untilTs)
            let rows = try Row.fetchCursor(db, sql: statement.sql, arguments: Self.arguments(statement))
            while let row = try rows.next() {
                let violation = ScannedViolation(
                    rule: row[0],
                    app: row[1],
                    session: row[2],
                    severity: row[3],
                    ts: row[4]
                )
                try row.withUnsafeData(atIndex: 5) { data in
                    try (data ?? Data()).withUnsafeBytes { try body(violation, $0) }
                }
            }
        }
    }

    /// Violations stored.
    public func count() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: Self.sql.count) ?? 0 }
    }

    /// The schema version of the file (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    }

    /// The first sequence number from which rows were observed at `since` or later, found by
    /// binary search: rows are stored in arrival order, so `observed` grows with `seq` (a row
    /// stored after the wall clock stepped back can move the bound, as it does for retention by
    /// age). About log2(rows) seeks of one row each instead of reading every row older than `since`.
    static func firstSequence(observedAtLeast since: Int64, in db: Database) throws -> Int64 {
        guard let (oldest, newest) = try sequenceRange(in: db) else { return 0 }
        let atOrAfter = try db.cachedStatement(
            sql: "SELECT seq, observed FROM \(sql.table) WHERE seq >= ? ORDER BY seq LIMIT 1"
        )
        // The answer lies in [low, high]; high = newest + 1 says no row is young enough.
        var low = oldest
        var high = newest + 1
        while low < high {
            let mid = low + (high - low) / 2
            guard let row = try Row.fetchOne(atOrAfter, arguments: [mid]) else { break }
            let seq: Int64 = row[0]
            let observed: Int64 = row[1]
            if observed >= since { high = mid } else { low = seq + 1 }
        }
        return low
    }

    /// The oldest and the newest sequence number stored, held in 1 to `maxSequence` (a file
    /// outside it is refused at open; one changed since by another writer cannot make the
    /// search's arithmetic overflow); nil when none is.
    private static func sequenceRange(in db: Database) throws -> (oldest: Int64, newest: Int64)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT MIN(seq), MAX(seq) FROM \(sql.table)"),
            let oldest = row[0] as Int64?, let newest = row[1] as Int64?
        else { return nil }
        let held = { (seq: Int64) in min(max(seq, 1), maxSequence) }
        return (held(oldest), held(newest))
    }

    /// A row of `HistorySQL.violationColumns`.
    static func storedViolation(_ row: Row) -> StoredViolation {
        StoredViolation(
            id: row[1],
            fingerprint: row[2],
            rule: row[3],
            app: row[4],
            session: row[5],
            severity: row[6],
            ts: row[7],
            observed: row[8],
            json: row[9],
            seq: row[0]
        )
    }

    static func arguments(_ statement: HistorySQL.Statement) -> StatementArguments {
        StatementArguments(
            statement.arguments.map { argument -> (any DatabaseValueConvertible)? in
                switch argument {
                case .text(let text): text
                case .integer(let value): value
                }
            }
        )
    }

    static func execute(_ statement: HistorySQL.Statement, in db: Database) throws {
        try db.execute(sql: statement.sql, arguments: arguments(statement))
    }
}

/// The prepared insert of one `write`: each row bound from the caller's bytes (`SQLITE_STATIC`:
/// SQLite reads them during the step) and stepped at once; BEGIN before the first.
private final class SQLiteRows: ViolationRows {
    private let db: Database
    private let insert: Statement
    private let begin: Statement
    /// Whether BEGIN ran.
    private(set) var begun = false
    /// The 32 hex digits of the id, then the 16 of the fingerprint.
    private var hex = [UInt8](repeating: 0, count: 48)
    /// What an empty text is bound to (SQLite reads a NULL pointer as NULL, not as "").
    private static let empty: StaticString = ""

    init(_ db: Database, insert: Statement, begin: Statement) {
        self.db = db
        self.insert = insert
        self.begin = begin
    }

    func add(_ row: ViolationColumns) throws {
        if !begun {
            try ViolationHistory.run(begin, db)
            begun = true
        }
        let statement = insert.sqliteStatement
        defer { sqlite3_reset(statement) }
        try hex.withUnsafeMutableBytes { digits in
            let base = digits.baseAddress!.assumingMemoryBound(to: UInt8.self)
            HexDigits.write(row.idHigh, to: base)
            HexDigits.write(row.idLow, to: base + 16)
            HexDigits.write(row.fingerprint, to: base + 32)
            bind(statement, 1, UnsafeRawBufferPointer(rebasing: digits[0..<32]))
            sqlite3_bind_int64(statement, 2, row.ts)
            sqlite3_bind_int64(statement, 3, row.observed)
            bind(statement, 4, row.rule)
            bind(statement, 5, row.severity)
            bind(statement, 6, row.app)
            bind(statement, 7, row.session)
            bind(statement, 8, UnsafeRawBufferPointer(rebasing: digits[32..<48]))
            bind(statement, 9, row.json)
            let code = sqlite3_step(statement)
            guard code == SQLITE_DONE else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: db.lastErrorMessage,
                    sql: insert.sql
                )
            }
        }
    }

    private func bind(_ statement: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawBufferPointer) {
        let pointer = UnsafeRawPointer(bytes.baseAddress ?? UnsafeRawPointer(Self.empty.utf8Start))
        sqlite3_bind_text(
            statement,
            index,
            pointer.assumingMemoryBound(to: CChar.self),
            Int32(clamping: bytes.count),
            nil
        )
    }
}
