import GRDB
import GRDBSQLite

/// Inserts violations inside `ViolationHistory.write`: binds each column straight
/// from the caller's bytes with the SQLite C API on the store's prepared statement
/// (`SQLITE_STATIC`: nothing copied, no `String` built), steps it, resets it.
/// Valid only during the `write` call that made it.
public struct ViolationWriter: ~Copyable {
    private let statement: SQLiteStatement
    private let connection: SQLiteConnection?
    /// Violations handed to `insert` so far.
    public private(set) var count = 0

    init(statement: SQLiteStatement, connection: SQLiteConnection?) {
        self.statement = statement
        self.connection = connection
    }

    /// Stores one violation: `idHigh`/`idLow` and `fingerprint` as they are in the
    /// published JSON (32 and 16 hex digits, most significant first); the text
    /// columns as UTF-8 bytes; `json` the violation exactly as published.
    /// A violation already stored (the same id, so the same `ts`: a replay) is left as it is.
    public mutating func insert(
        idHigh: UInt64, idLow: UInt64, fingerprint: UInt64,
        rule: UnsafeRawBufferPointer, app: UnsafeRawBufferPointer, session: UnsafeRawBufferPointer,
        severity: UnsafeRawBufferPointer, ts: Int64, observed: Int64, json: UnsafeRawBufferPointer
    ) throws {
        // Big-endian, so that hex(id) is the published id and BLOB order is its order.
        var keys = (idHigh.bigEndian, idLow.bigEndian, fingerprint.bigEndian)
        let code = withUnsafeBytes(of: &keys) { keys -> CInt in
            let statement = self.statement
            var code = sqlite3_bind_blob(statement, 1, keys.baseAddress, 16, nil)
            if code == SQLITE_OK { code = sqlite3_bind_blob(statement, 2, keys.baseAddress! + 16, 8, nil) }
            if code == SQLITE_OK { code = Self.bindText(statement, 3, rule) }
            if code == SQLITE_OK { code = Self.bindText(statement, 4, app) }
            if code == SQLITE_OK { code = Self.bindText(statement, 5, session) }
            if code == SQLITE_OK { code = Self.bindText(statement, 6, severity) }
            if code == SQLITE_OK { code = sqlite3_bind_int64(statement, 7, ts) }
            if code == SQLITE_OK { code = sqlite3_bind_int64(statement, 8, observed) }
            if code == SQLITE_OK { code = Self.bindText(statement, 9, json) }
            if code == SQLITE_OK { code = sqlite3_step(statement) }
            // The bindings point into `keys` and the caller's buffers: step while they live.
            let reset = sqlite3_reset(statement)
            return code == SQLITE_DONE ? reset : code
        }
        guard code == SQLITE_OK || code == SQLITE_DONE else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: ViolationHistory.insertSQL)
        }
        count += 1
    }

    /// Drops the bindings, which point at buffers the caller is about to free.
    func finish() {
        sqlite3_clear_bindings(statement)
    }

    /// A TEXT binding of the bytes, not copied (`SQLITE_STATIC`); an empty one is the empty string, never NULL.
    private static func bindText(_ statement: SQLiteStatement, _ index: CInt, _ bytes: UnsafeRawBufferPointer) -> CInt {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            // A pointer that lives as long as the program: SQLite keeps it until the next binding.
            let empty: StaticString = ""
            return empty.utf8Start.withMemoryRebound(to: CChar.self, capacity: 1) {
                sqlite3_bind_text(statement, index, $0, 0, nil)
            }
        }
        return sqlite3_bind_text(statement, index, base.assumingMemoryBound(to: CChar.self), CInt(bytes.count), nil)
    }
}

/// Not `Sendable`: valid only during the `write` call that made it, on its thread.
@available(*, unavailable)
extension ViolationWriter: Sendable {}
