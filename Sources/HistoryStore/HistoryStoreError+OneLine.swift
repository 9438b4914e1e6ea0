import GRDB

extension HistoryStoreError {
    /// Any error of the store in one line and without SQL: SQLite's own message and its
    /// extended result code for a database error (GRDB's description adds the statement).
    public static func oneLine(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "\(error.message ?? "SQLite error") (SQLite code \(error.extendedResultCode.rawValue))"
        }
        let text = "\(error)"
        return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
    }
}
