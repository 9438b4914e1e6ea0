import Foundation
import GRDB

extension ViolationHistory {
    /// How far a conversion of an older file has come: of a file's `violations` rows to segments
    /// (`rows`), or of v5's session postings to session sets (`sessionPostings`).
    public struct ConversionProgress: Sendable, Equatable {
        /// What is converted.
        public enum Stage: String, Sendable {
            /// One row a violation (schema v1 to v4) to segments.
            case rows
            /// Schema v5's session postings (one row per session per segment) to session sets.
            case sessionPostings
        }

        /// Violations (rows, or the violations of the segments) converted so far by this conversion.
        public var converted: Int
        /// Violations still to convert (0: done, and the old table dropped).
        public var remaining: Int
        /// Rows left out so far: an id that is not 16 bytes or 32 hex digits, or a fingerprint not 8
        /// bytes or 16 hex digits (a hand-made row of a v1 file), which a segment cannot hold.
        public var leftOut: Int
        /// What is converted.
        public var stage: Stage = .rows
    }

    /// Converts v5's `segment_sessions` (one posting row per session per segment) to session sets
    /// and filters, oldest segment first, segments of about `sliceViolations` violations a
    /// transaction (at least one segment): each segment's set
    /// is made from its records, its bucket's filter updated, its old postings deleted, and
    /// `progress` told. A process stopped between slices goes on where it stopped at the next start
    /// (after the newest segment that has a set). The old table is dropped once every segment has
    /// its set. Nothing to do for a file without it.
    func convertSessionPostings(sliceViolations: Int, progress: (ConversionProgress) throws -> Void) throws {
        let builder = SegmentBuilder()
        var converted = 0
        while true {
            let step = try database.write { db -> (violations: Int, remaining: Int)? in
                guard try db.tableExists("segment_sessions") else { return nil }
                let after = try Int64.fetchOne(db, sql: "SELECT MAX(segment) FROM segment_session_sets") ?? .min
                // The slice's segments first (no statement may stay open when the old table is dropped).
                var slice: [Int64] = []
                var violations = 0
                for row in try Row.fetchAll(db, sql: """
                    SELECT first_seq, count FROM segments WHERE first_seq > ? ORDER BY first_seq LIMIT ?
                    """, arguments: [after, max(1, sliceViolations)]) where violations < sliceViolations {
                    slice.append(row[0])
                    violations += row[1] as Int
                }
                var last: Int64?
                let records = try db.cachedStatement(sql: "SELECT records FROM segments WHERE first_seq = ?")
                for first in slice {
                    guard let row = try Row.fetchOne(records, arguments: [first]) else { continue }
                    builder.reset()
                    // The records appended again, in order: the builder's sessions and places are the segment's.
                    try row.withUnsafeData(atIndex: 0) { data in
                        try data?.withUnsafeBytes { try builder.refill(from: $0) }
                    }
                    try Self.storeSessions(builder, first: first, in: db, filter: builder)
                    last = first
                }
                try Self.writeFilter(builder, in: db)
                if let last {
                    try db.execute(sql: "DELETE FROM segment_sessions WHERE bucket <= ? AND segment <= ?",
                                   arguments: [last >> Self.sessionBucketShift, last])
                }
                let remaining = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(count), 0) FROM segments WHERE first_seq > ?",
                                                 arguments: [last ?? after]) ?? 0
                if last == nil || remaining == 0 {
                    try db.execute(sql: "DROP TABLE segment_sessions")
                    return (violations, 0)
                }
                return (violations, remaining)
            }
            guard let step else { return }
            _ = try? database.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            converted += step.violations
            if step.violations > 0 {
                try progress(ConversionProgress(converted: converted, remaining: step.remaining, leftOut: 0, stage: .sessionPostings))
            }
            if step.remaining == 0 { return }
        }
    }

    /// Violations a converted segment holds at most.
    static let conversionSegmentRows = 1_000

    /// Converts the rows of a `violations` table (schema v4: one row a violation) to segments,
    /// oldest first, `sliceRows` a transaction: each slice's rows become segments of up to 1,000
    /// (their sequence numbers are their rowids), are deleted from the old table, and `progress`
    /// is told. A process stopped between slices goes on where it stopped at the next start. The
    /// table is dropped once it is empty. Nothing to do for a file without it.
    func convertRows(sliceRows: Int, progress: (ConversionProgress) throws -> Void) throws {
        let builder = SegmentBuilder()
        var converted = 0, leftOut = 0
        while true {
            let step = try database.write { db -> (rows: Int, remaining: Int, leftOut: Int)? in
                guard try db.tableExists("violations") else { return nil }
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT rowid, id, fingerprint, rule, app, session, severity, ts, observed, json
                    FROM violations ORDER BY rowid LIMIT ?
                    """, arguments: [max(1, sliceRows)])
                var first: Int64?, previous: Int64 = 0, count = 0, odd = 0
                func flush() throws {
                    if let first, builder.count > 0 { try Self.store(builder, in: db, firstSequence: first) }
                    builder.reset()
                    first = nil
                }
                while let row = try rows.next() {
                    let rowid: Int64 = row[0]
                    if first != nil, rowid != previous + 1 || builder.count >= Self.conversionSegmentRows { try flush() }
                    if first == nil { first = rowid }
                    guard let (idHigh, idLow) = Self.idHalves(row, 1), let fingerprint = Self.fingerprint(row, 2) else {
                        // Left out; the next row starts a segment (sequence numbers stay those of the rows).
                        try flush()
                        previous = rowid
                        count += 1
                        odd += 1
                        continue
                    }
                    var rule: String = row[3], app: String = row[4], session: String = row[5], severity: String = row[6]
                    let ts: Int64 = row[7], observed: Int64 = row[8]
                    var json: String = row[9]
                    try rule.withUTF8 { rule in try app.withUTF8 { app in try session.withUTF8 { session in
                        try severity.withUTF8 { severity in try json.withUTF8 { json in
                            try builder.append(
                                idHigh: idHigh, idLow: idLow, fingerprint: fingerprint, rule: UnsafeRawBufferPointer(rule),
                                app: UnsafeRawBufferPointer(app), session: UnsafeRawBufferPointer(session),
                                severity: UnsafeRawBufferPointer(severity), ts: ts, observed: observed, json: UnsafeRawBufferPointer(json))
                        } }
                    } } }
                    previous = rowid
                    count += 1
                }
                try flush()
                if count == 0 {
                    try db.execute(sql: "DROP TABLE violations")
                    return (0, 0, 0)
                }
                try db.execute(sql: "DELETE FROM violations WHERE rowid <= ?", arguments: [previous])
                let remaining = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM violations") ?? 0
                if remaining == 0 { try db.execute(sql: "DROP TABLE violations") }
                return (count, remaining, odd)
            }
            guard let step else { return }
            // The writer may not checkpoint by itself (`checkpointsElsewhere`): a conversion does,
            // so that its WAL stays about a slice long.
            _ = try? database.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            converted += step.rows - step.leftOut
            leftOut += step.leftOut
            if step.rows > 0 { try progress(ConversionProgress(converted: converted, remaining: step.remaining, leftOut: leftOut)) }
            if step.remaining == 0 { return }
        }
    }

    /// A v2+ row's id (a 16-byte big-endian BLOB) or a v1 row's (32 hex digits) as its halves.
    private static func idHalves(_ row: Row, _ index: Int) -> (UInt64, UInt64)? {
        let value: DatabaseValue = row[index]
        if case .blob(let data) = value.storage, data.count == 16 {
            let bytes = [UInt8](data)
            let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return (high, low)
        }
        if case .string(let text) = value.storage, text.utf8.count == 32,
           let high = UInt64(text.prefix(16), radix: 16), let low = UInt64(text.suffix(16), radix: 16) {
            return (high, low)
        }
        return nil
    }

    /// A v2+ row's fingerprint (an 8-byte big-endian BLOB) or a v1 row's (16 hex digits).
    private static func fingerprint(_ row: Row, _ index: Int) -> UInt64? {
        let value: DatabaseValue = row[index]
        if case .blob(let data) = value.storage, data.count == 8 {
            return data.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        if case .string(let text) = value.storage, let number = UInt64(text, radix: 16) { return number }
        return nil
    }
}
