import CLibPQ
import Foundation

/// One libpq connection, synchronous, used by one thread at a time: statements with text
/// parameters, `COPY … FROM STDIN`, and errors in one line with their SQLSTATE.
final class PostgresConnection {
    private let connection: OpaquePointer

    /// Connects with `conninfo` (a libpq connection string or URI). `connectTimeoutSeconds` and
    /// `applicationName` apply unless `conninfo` sets them; the client encoding is UTF-8.
    init(conninfo: String, connectTimeoutSeconds: Int, applicationName: String) throws(PostgresError) {
        // Processed in order, the last value of a keyword winning: `dbname` (expanded) overrides the defaults.
        let keywords = ["connect_timeout", "application_name", "dbname", "client_encoding"]
        let values = ["\(connectTimeoutSeconds)", applicationName, conninfo, "UTF8"]
        let made: OpaquePointer? = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let made else { throw PostgresError("cannot connect to PostgreSQL: out of memory") }
        guard PQstatus(made) == CONNECTION_OK else {
            let text = Self.oneLine(PQerrorMessage(made))
            PQfinish(made)
            throw PostgresError("cannot connect to PostgreSQL: \(text)")
        }
        connection = made
        // Notices (e.g. "already exists, skipping") are not errors: not printed.
        PQclear(PQexec(made, "SET client_min_messages = warning"))
    }

    deinit { PQfinish(connection) }

    /// Whether the connection is still good (libpq's view after the last call).
    var isOK: Bool { PQstatus(connection) == CONNECTION_OK }

    /// The server's major version number (e.g. 15).
    var serverMajorVersion: Int { Int(PQserverVersion(connection)) / 10_000 }

    /// Runs `sql` (one or more statements, no parameters) and returns the last result.
    @discardableResult
    func execute(_ sql: String) throws(PostgresError) -> PostgresResult {
        try check(PQexec(connection, sql))
    }

    /// Runs one statement with text parameters (`$1` …; nil is NULL).
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> PostgresResult {
        let storage: [[CChar]?] = parameters.map { $0.map { Array($0.utf8CString) } }
        let result: OpaquePointer? = withPointers(storage) { pointers in
            PQexecParams(connection, sql, Int32(pointers.count), nil, pointers, nil, nil, 0)
        }
        return try check(result)
    }

    /// Runs `COPY … FROM STDIN` with `data` (the text format's rows).
    func copyIn(_ sql: String, data: UnsafeRawBufferPointer) throws(PostgresError) {
        let started = PQexec(connection, sql)
        defer { PQclear(started) }
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            throw error(started)
        }
        var sent = data.isEmpty ? 1 : PQputCopyData(
            connection, data.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(data.count))
        if sent == 1 { sent = PQputCopyEnd(connection, nil) }
        // Whatever happened, read results until libpq has none: the connection is then ready again.
        var failure: PostgresError? = sent == 1 ? nil : PostgresError("the COPY to PostgreSQL failed: \(Self.oneLine(PQerrorMessage(connection)))")
        while let result = PQgetResult(connection) {
            if failure == nil, PQresultStatus(result) != PGRES_COMMAND_OK { failure = error(result) }
            PQclear(result)
        }
        if let failure { throw failure }
    }

    /// Rolls back whatever transaction is open; a broken connection is left as it is.
    func rollBack() {
        guard isOK, PQtransactionStatus(connection) != PQTRANS_IDLE else { return }
        PQclear(PQexec(connection, "ROLLBACK"))
    }

    private func check(_ result: OpaquePointer?) throws(PostgresError) -> PostgresResult {
        guard let result else { throw PostgresError("PostgreSQL: \(Self.oneLine(PQerrorMessage(connection)))") }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE:
            return PostgresResult(result)
        default:
            defer { PQclear(result) }
            throw error(result)
        }
    }

    private func error(_ result: OpaquePointer?) -> PostgresError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
        let text = primary ?? Self.oneLine(PQerrorMessage(connection))
        return PostgresError("PostgreSQL: \(text)" + (state.map { " (SQLSTATE \($0))" } ?? ""), sqlState: state)
    }

    /// libpq's message (it may span lines and end with one) as one line.
    static func oneLine(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        let lines = String(cString: text).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.isEmpty ? "unknown error" : lines.joined(separator: "; ")
    }
}

/// Not `Sendable`: one thread uses a connection at a time (its owner serializes).
@available(*, unavailable)
extension PostgresConnection: Sendable {}

/// A result of rows, cleared when released.
final class PostgresResult {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    /// Rows in the result.
    var rows: Int { Int(PQntuples(result)) }

    /// Rows a `DELETE`, `INSERT` or `UPDATE` touched.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    /// The text of row `row`, column `column`; nil for NULL.
    func text(_ row: Int, _ column: Int) -> String? {
        guard PQgetisnull(result, Int32(row), Int32(column)) == 0 else { return nil }
        return String(cString: PQgetvalue(result, Int32(row), Int32(column)))
    }

    /// The integer of row `row`, column `column` (0 for NULL or not an integer).
    func int64(_ row: Int, _ column: Int) -> Int64 {
        text(row, column).flatMap { Int64($0) } ?? 0
    }

    /// The bytes of row `row`, column `column`, valid while this result lives.
    func bytes(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(
            start: PQgetvalue(result, Int32(row), Int32(column)), count: Int(PQgetlength(result, Int32(row), Int32(column))))
    }
}

@available(*, unavailable)
extension PostgresResult: Sendable {}

/// C strings for `strings`, valid during `body`, as a NULL-terminated array.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    var storage: [[CChar]?] = strings.map { Array($0.utf8CString) }
    storage.append(nil)
    return withPointers(storage) { pointers in pointers.withUnsafeBufferPointer { body($0.baseAddress!) } }
}

/// Pointers to each of `storage`'s buffers (nil stays nil), valid during `body`.
private func withPointers<R>(_ storage: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    func nest(_ index: Int, _ pointers: inout [UnsafePointer<CChar>?]) -> R {
        guard index < storage.count else { return body(pointers) }
        guard storage[index] != nil else {
            pointers.append(nil)
            return nest(index + 1, &pointers)
        }
        return storage[index]!.withUnsafeBufferPointer { buffer in
            pointers.append(buffer.baseAddress)
            return nest(index + 1, &pointers)
        }
    }
    var pointers: [UnsafePointer<CChar>?] = []
    pointers.reserveCapacity(storage.count)
    return nest(0, &pointers)
}
