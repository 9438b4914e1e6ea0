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
        /// The presentation it is about, or nil.
        public var subject: String?
        /// Its message.
        public var message: String?
    }

    /// Every stored violation of `app` (all when nil) with event time in `[sinceTs, untilTs)`, oldest
    /// event time first, one at a time through `body` (a cursor: memory stays flat however many
    /// rows there are). SQLite reads `subject` and `message` out of the JSON itself (json_extract).
    public func scan(app: String? = nil, sinceTs: Int64? = nil, untilTs: Int64? = nil,
                     _ body: (ScannedViolation) throws -> Void) throws {
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let app { clauses.append("app = ?"); arguments.append(app) }
        if let sinceTs { clauses.append("ts >= ?"); arguments.append(sinceTs) }
        if let untilTs { clauses.append("ts < ?"); arguments.append(untilTs) }
        let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        try database.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT rule, app, session, severity, ts,
                       json_extract(json, '$.subject') AS subject, json_extract(json, '$.message') AS message
                FROM violations \(filter) ORDER BY ts, rowid
                """, arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                try body(ScannedViolation(rule: row[0], app: row[1], session: row[2], severity: row[3], ts: row[4],
                                          subject: row[5], message: row[6]))
            }
        }
    }
}
