/// An error of the PostgreSQL store in one line: libpq's or the server's message, with the
/// SQLSTATE when the server sent one.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, one line.
    public let description: String
    /// The server's SQLSTATE (e.g. `53100` disk full), or nil when the error is the client's.
    public let sqlState: String?

    /// Creates an error.
    public init(_ description: String, sqlState: String? = nil) {
        self.description = description
        self.sqlState = sqlState
    }
}
