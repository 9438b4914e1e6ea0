import Foundation
import GRDB

extension ViolationHistory {
    /// The fields of a stored violation that a report counts.
    public struct ScannedViolation: Sendable {
        /// Rule id.
        public var rule: String
        /// Bundle id.
        public var app: String
        /// Session id.
        public var session: String
        /// `info`, `warning` or `error`.
        public var severity: String
        /// Event time (ms).
        public var ts: Int64
    }

    /// Every stored violation of `app` (all when nil) with event time in `[sinceTs, untilTs)`, in
    /// no particular order, one at a time through `body` with its JSON as stored (the bytes are valid
    /// only during the call). A cursor: memory stays flat however many rows there are. (SQLite's
    /// `json_extract` of two fields cost 10 s per million rows; the caller reads what it needs.)
    public func scan(app: String? = nil, sinceTs: Int64? = nil, untilTs: Int64? = nil,
                     _ body: (ScannedViolation, UnsafeRawBufferPointer) throws -> Void) throws {
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let app { clauses.append("app = ?"); arguments.append(app) }
        if let sinceTs { clauses.append("ts >= ?"); arguments.append(sinceTs) }
        if let untilTs { clauses.append("ts < ?"); arguments.append(untilTs) }
        let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        try database.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT rule, app, session, severity, ts, json FROM violations \(filter)
                """, arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                let violation = ScannedViolation(rule: row[0], app: row[1], session: row[2], severity: row[3], ts: row[4])
                try row.withUnsafeData(atIndex: 5) { data in
                    try (data ?? Data()).withUnsafeBytes { try body(violation, $0) }
                }
            }
        }
    }
}
