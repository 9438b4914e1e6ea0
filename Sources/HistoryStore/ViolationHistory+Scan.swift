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

        /// A violation's counted fields.
        public init(rule: String, app: String, session: String, severity: String, ts: Int64) {
            self.rule = rule
            self.app = app
            self.session = session
            self.severity = severity
            self.ts = ts
        }
    }

    /// Every stored violation of `app` (all when nil) with event time in `[sinceTs, untilTs)`, in
    /// no particular order, one at a time through `body` with its JSON as stored (the bytes are valid
    /// only during the call). Segments come through `segment_apps` when `app` is given (and the
    /// unposted tail, read whole), and those
    /// whose event times lie outside the range are skipped unread; one segment is in memory at a
    /// time, so memory stays flat however many violations there are.
    public func scan(app: String? = nil, sinceTs: Int64? = nil, untilTs: Int64? = nil,
                     _ body: (ScannedViolation, UnsafeRawBufferPointer) throws -> Void) throws {
        try reading { db in
            if try db.tableExists("violations") { try Self.scanRows(db, app: app, sinceTs: sinceTs, untilTs: untilTs, body) }
            guard try Self.hasSegments(db) else { return }
            let appBytes = app.map { Array($0.utf8) }
            var clauses: [String] = []
            var arguments: [any DatabaseValueConvertible] = []
            if let app {
                // Through the postings, and the unposted tail (which has none) whole.
                if let after = try Self.unpostedAfter(db) {
                    clauses.append("(first_seq IN (SELECT segment FROM segment_apps WHERE app = ?) OR first_seq > ?)")
                    arguments += [app, after]
                } else {
                    clauses.append("first_seq IN (SELECT segment FROM segment_apps WHERE app = ?)")
                    arguments.append(app)
                }
            }
            if let sinceTs { clauses.append("max_ts >= ?"); arguments.append(sinceTs) }
            if let untilTs { clauses.append("min_ts < ?"); arguments.append(untilTs) }
            let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
            let segments = try Row.fetchCursor(db, sql: "SELECT records FROM segments \(filter)", arguments: StatementArguments(arguments))
            while let row = try segments.next() {
                try row.withUnsafeData(atIndex: 0) { data in
                    guard let data else { return }
                    try data.withUnsafeBytes { bytes in
                        for record in SegmentRecords(bytes) {
                            if let sinceTs, record.ts < sinceTs { continue }
                            if let untilTs, record.ts >= untilTs { continue }
                            if let appBytes, !record.app.elementsEqual(appBytes) { continue }
                            let violation = ScannedViolation(
                                rule: String(decoding: record.rule, as: UTF8.self), app: String(decoding: record.app, as: UTF8.self),
                                session: String(decoding: record.session, as: UTF8.self),
                                severity: String(decoding: record.severity, as: UTF8.self), ts: record.ts)
                            try body(violation, record.json)
                        }
                    }
                }
            }
        }
    }

    /// `scan` over the rows of a `violations` table (an older file, or rows not converted yet).
    private static func scanRows(_ db: Database, app: String?, sinceTs: Int64?, untilTs: Int64?,
                                 _ body: (ScannedViolation, UnsafeRawBufferPointer) throws -> Void) throws {
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let app { clauses.append("app = ?"); arguments.append(app) }
        if let sinceTs { clauses.append("ts >= ?"); arguments.append(sinceTs) }
        if let untilTs { clauses.append("ts < ?"); arguments.append(untilTs) }
        let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
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
