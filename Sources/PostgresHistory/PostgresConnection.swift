import ByteBasics
import CLibPQ
import Foundation

/// One libpq connection, used by one thread at a time: statements with text parameters,
/// `COPY … FROM STDIN`, and errors in one line with their SQLSTATE.
///
/// Every call has a client-side deadline (`deadlineMs`): the connection is non-blocking and each
/// wait is a `poll` bounded by what is left of it, so a server that stops answering (a hung host,
/// a black-holed link, its processes stopped, where the kernel still acknowledges every packet)
/// costs the caller at most the deadline. Past it the connection is given up: this call and every
/// later one throw, and the owner makes a new connection.
final class PostgresConnection {
    private let connection: OpaquePointer
    /// How long one call may wait for the server, in milliseconds.
    var deadlineMs: Int64
    /// Why the connection was given up, once it was.
    private var abandoned: String?

    /// Connects with `conninfo` (a libpq connection string or URI). `connectTimeoutSeconds` and
    /// `applicationName` apply unless `conninfo` sets them; the client encoding is UTF-8.
    init(conninfo: String, connectTimeoutSeconds: Int, applicationName: String, deadlineMs: Int64) throws(PostgresError)
    {
        // Processed in order, the last value of a keyword winning: `dbname` (expanded) overrides the defaults.
        let keywords = ["connect_timeout", "application_name", "dbname", "client_encoding"]
        let values = ["\(connectTimeoutSeconds)", applicationName, conninfo, "UTF8"]
        let made: OpaquePointer? = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let made else { throw PostgresError("cannot connect to PostgreSQL: out of memory") }
        guard PQstatus(made) == CONNECTION_OK, PQsetnonblocking(made, 1) == 0 else {
            let text = Self.oneLine(PQerrorMessage(made))
            PQfinish(made)
            throw PostgresError("cannot connect to PostgreSQL: \(text)")
        }
        connection = made
        self.deadlineMs = deadlineMs
        // Notices (e.g. "already exists, skipping") are not errors: not printed.
        try execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(connection) }

    /// Whether the connection is still good (libpq's view after the last call, and not given up).
    var isOK: Bool { abandoned == nil && PQstatus(connection) == CONNECTION_OK }

    /// The server's major version number (e.g. 15).
    var serverMajorVersion: Int { Int(PQserverVersion(connection)) / 10_000 }

    /// Runs `sql` (one or more statements, no parameters) and returns the last result.
    @discardableResult
    func execute(_ sql: String) throws(PostgresError) -> PostgresResult {
        try check(results { PQsendQuery(connection, sql) })
    }

    /// Runs one statement with text parameters (`$1` …; nil is NULL).
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> PostgresResult {
        let storage: [[CChar]?] = parameters.map { $0.map { Array($0.utf8CString) } }
        let result = try results {
            withPointers(storage) { pointers in
                PQsendQueryParams(connection, sql, Int32(pointers.count), nil, pointers, nil, nil, 0)
            }
        }
        return try check(result)
    }

    /// Runs `COPY … FROM STDIN` with `data` (the text format's rows).
    func copyIn(_ sql: String, data: UnsafeRawBufferPointer) throws(PostgresError) {
        let deadline = Self.now() + deadlineMs
        let started = try results(until: deadline) { PQsendQuery(connection, sql) }
        defer { PQclear(started) }
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            throw error(started)
        }
        var sent: Int32 = 1
        if !data.isEmpty {
            sent = try whileWouldBlock(until: deadline) {
                PQputCopyData(connection, data.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(data.count))
            }
        }
        if sent == 1 { sent = try whileWouldBlock(until: deadline) { PQputCopyEnd(connection, nil) } }
        guard sent == 1 else {
            throw PostgresError("the COPY to PostgreSQL failed: \(Self.oneLine(PQerrorMessage(connection)))")
        }
        let ended = try results(until: deadline) { 1 }
        defer { PQclear(ended) }
        if PQresultStatus(ended) != PGRES_COMMAND_OK { throw error(ended) }
    }

    /// Rolls back whatever transaction is open; a broken connection is left as it is.
    func rollBack() {
        guard isOK, PQtransactionStatus(connection) != PQTRANS_IDLE else { return }
        if let result = try? results(sending: { PQsendQuery(connection, "ROLLBACK") }) { PQclear(result) }
    }

    // MARK: - Waiting, bounded

    private static func now() -> Int64 { PosixClock.monotonic.milliseconds() }

    /// `send` (a `PQsend…` call), then every result until libpq has none, waiting at most
    /// `deadlineMs`: the first error result, else the last one (`PQexec`'s answer).
    private func results(sending send: () -> Int32) throws(PostgresError) -> OpaquePointer? {
        try results(until: Self.now() + deadlineMs, send)
    }

    /// `results(sending:)` against a deadline given (monotonic ms). `send` returning 1 without
    /// sending anything reads the results of what was sent before. A `COPY IN` result ends the
    /// reading: the caller sends the data.
    private func results(until deadline: Int64, _ send: () -> Int32) throws(PostgresError) -> OpaquePointer? {
        if let abandoned { throw PostgresError(abandoned) }
        guard send() == 1 else { throw PostgresError("PostgreSQL: \(Self.oneLine(PQerrorMessage(connection)))") }
        try flush(until: deadline)
        var kept: OpaquePointer?
        while true {
            while PQisBusy(connection) == 1 {
                try wait(for: Int16(POLLIN), until: deadline)
                guard PQconsumeInput(connection) == 1 else {
                    if let kept { PQclear(kept) }
                    throw PostgresError("PostgreSQL: \(Self.oneLine(PQerrorMessage(connection)))")
                }
            }
            guard let result = PQgetResult(connection) else { return kept }
            let status = PQresultStatus(result)
            if status == PGRES_COPY_IN {
                if let kept { PQclear(kept) }
                return result
            }
            if let held = kept, PQresultStatus(held) == PGRES_FATAL_ERROR {
                PQclear(result)  // the first error is the answer
            } else {
                if let kept { PQclear(kept) }
                kept = result
            }
        }
    }

    /// Sends what libpq holds, waiting for the socket, until nothing is left.
    private func flush(until deadline: Int64) throws(PostgresError) {
        while true {
            switch PQflush(connection) {
            case 0: return
            case 1:
                let ready = try wait(for: Int16(POLLOUT | POLLIN), until: deadline)
                if ready & Int16(POLLIN) != 0, PQconsumeInput(connection) == 0 {
                    throw PostgresError("PostgreSQL: \(Self.oneLine(PQerrorMessage(connection)))")
                }
            default: throw PostgresError("PostgreSQL: \(Self.oneLine(PQerrorMessage(connection)))")
            }
        }
    }

    /// Repeats `put` (`PQputCopyData`, `PQputCopyEnd`) while it would block (0), then flushes.
    private func whileWouldBlock(until deadline: Int64, _ put: () -> Int32) throws(PostgresError) -> Int32 {
        while true {
            let done = put()
            if done != 0 {
                if done == 1 { try flush(until: deadline) }
                return done
            }
            try wait(for: Int16(POLLOUT), until: deadline)
        }
    }

    /// Waits until the socket is ready for `events` or the deadline passes; past it, gives the
    /// connection up and throws.
    @discardableResult
    private func wait(for events: Int16, until deadline: Int64) throws(PostgresError) -> Int16 {
        while true {
            let left = deadline - Self.now()
            guard left > 0 else {
                let reason = "PostgreSQL did not answer within \(deadlineMs) ms; the connection is given up"
                abandoned = reason
                throw PostgresError(reason)
            }
            var descriptor = pollfd(fd: PQsocket(connection), events: events, revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 1000)))
            if ready > 0 { return descriptor.revents }
            if ready < 0, errno != EINTR {
                throw PostgresError("PostgreSQL: poll: \(String(cString: strerror(errno)))")
            }
        }
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
        let lines = String(cString: text).split(whereSeparator: \.isNewline).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
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
            start: PQgetvalue(result, Int32(row), Int32(column)),
            count: Int(PQgetlength(result, Int32(row), Int32(column)))
        )
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
