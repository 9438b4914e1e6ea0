import GRDB
import GRDBSQLite

/// The writer's commit of one segment without postings, on SQLite's C API: `BEGIN IMMEDIATE`,
/// the `segments` row, `COMMIT`, each a statement prepared once (`SQLITE_PREPARE_PERSISTENT`) on
/// the writer's connection, stepped without GRDB's queue, statement cache or argument values.
/// This is the commit of nearly every segment (`ViolationHistory.write`: the postings follow
/// every `postingBatch` violations, through GRDB); its cost is SQLite's own.
///
/// Not thread-safe: used only by `ViolationHistory` with its `writing` lock held, which every
/// other use of the connection holds too (`ViolationHistory.reading`). `close` finalizes the
/// statements before GRDB closes the connection.
final class SegmentAppender {
    private let connection: OpaquePointer
    private let begin: OpaquePointer
    private let insert: OpaquePointer
    private let commit: OpaquePointer
    private let rollback: OpaquePointer
    private var closed = false

    /// Prepares the statements on `connection` (the writer's, schema v5 or later), and takes GRDB's
    /// commit and rollback hooks off it: they tell GRDB's transaction observers (the store
    /// registers none) and expect to run on GRDB's queue, which these commits do not use.
    init(connection: OpaquePointer) throws {
        self.connection = connection
        sqlite3_commit_hook(connection, nil, nil)
        sqlite3_rollback_hook(connection, nil, nil)
        var prepared: [OpaquePointer] = []
        do {
            for sql in [Self.beginSQL, ViolationHistory.insertSegmentSQL, Self.commitSQL, Self.rollbackSQL] {
                prepared.append(try Self.prepare(sql, on: connection))
            }
        } catch {
            for statement in prepared { sqlite3_finalize(statement) }
            throw error
        }
        begin = prepared[0]
        insert = prepared[1]
        commit = prepared[2]
        rollback = prepared[3]
    }

    deinit { close() }

    /// Finalizes the statements (the connection can then be closed). Idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        for statement in [begin, insert, commit, rollback] { sqlite3_finalize(statement) }
    }

    /// Writes `segment` (at least one record) as the row `first`..`first + count - 1` of
    /// `segments` in one transaction of its own, committed when this returns. On an error the
    /// transaction is rolled back and nothing of it is stored.
    func append(_ segment: SegmentBuilder, first: Int64) throws {
        try step(begin, SQLITE_OK, Self.beginSQL)
        do {
            try segment.withBytes { bytes in
                let values = (first, first + Int64(segment.count) - 1, Int64(segment.count), segment.firstObserved,
                              segment.lastObserved, segment.maxObserved, segment.minTs, segment.maxTs, Int64(SegmentFormat.plain))
                var code = withUnsafeBytes(of: values) { raw -> CInt in
                    let integers = raw.bindMemory(to: Int64.self)
                    var code = SQLITE_OK
                    for index in integers.indices where code == SQLITE_OK {
                        code = sqlite3_bind_int64(insert, CInt(index + 1), integers[index])
                    }
                    return code
                }
                // The records bound without a copy (SQLITE_STATIC): stepped before `bytes` ends.
                if code == SQLITE_OK { code = sqlite3_bind_blob(insert, 10, bytes.baseAddress, CInt(bytes.count), nil) }
                try step(insert, code, ViolationHistory.insertSegmentSQL)
            }
            try step(commit, SQLITE_OK, Self.commitSQL)
        } catch {
            if sqlite3_get_autocommit(connection) == 0 { _ = try? step(rollback, SQLITE_OK, Self.rollbackSQL) }
            throw error
        }
    }

    /// Steps `statement` once (unless `code`, a binding's result, is an error already), resets it
    /// and clears its bindings; throws GRDB's `DatabaseError` with SQLite's message.
    private func step(_ statement: OpaquePointer, _ code: CInt, _ sql: String) throws {
        var code = code
        if code == SQLITE_OK { code = sqlite3_step(statement) }
        let reset = sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        if code == SQLITE_DONE { code = reset }
        guard code == SQLITE_OK || code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
    }

    private static func prepare(_ sql: String, on connection: OpaquePointer) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        return statement
    }

    static let beginSQL = "BEGIN IMMEDIATE"
    static let commitSQL = "COMMIT"
    static let rollbackSQL = "ROLLBACK"
}

/// Not `Sendable`: confined by `ViolationHistory`'s `writing` lock.
@available(*, unavailable)
extension SegmentAppender: Sendable {}
