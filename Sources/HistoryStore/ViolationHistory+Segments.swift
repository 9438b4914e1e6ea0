import ByteBasics
import Foundation
import GRDB
import GRDBSQLite

extension ViolationHistory {
    static let insertSegmentSQL = """
        INSERT INTO segments (first_seq, last_seq, count, first_observed, last_observed, max_observed, min_ts, max_ts, format, records)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let insertAppSQL = "INSERT OR IGNORE INTO segment_apps (app, segment) VALUES (?, ?)"
    static let insertRuleSQL = "INSERT OR IGNORE INTO segment_rules (rule, segment) VALUES (?, ?)"
    static let insertSessionSetSQL = "INSERT INTO segment_session_sets (segment, sessions) VALUES (?, ?)"
    static let insertFilterSQL = "INSERT OR REPLACE INTO session_filters (bucket, bits) VALUES (?, ?)"

    /// Whether the file has the v5 tables (a read-only reader may open an older file).
    static func hasSegments(_ db: Database) throws -> Bool { try db.tableExists("segments") }

    /// The sequence number the next stored violation gets: after the newest segment's. (A writer
    /// has converted every row of an older file before it writes: `convertRows`.)
    /// A newest sequence number outside `0..<maxSequence` (a file damaged or written elsewhere) is
    /// refused with an error that names it.
    static func nextSequence(_ db: Database) throws -> Int64 {
        let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT last_seq FROM segments ORDER BY first_seq DESC LIMIT 1")) ?? 0
        guard last >= 0, last < maxSequence else {
            throw HistoryStoreError(
                "the history's newest sequence number \(last) is outside 0 to \(maxSequence - 1): the file is damaged; move it aside")
        }
        return last + 1
    }

    /// Writes `segment` (at least one record) as the next row of `segments` and its postings, in
    /// the caller's transaction (the conversions' way: every segment posted at once).
    static func store(_ segment: SegmentBuilder, in db: Database, firstSequence: Int64? = nil) throws {
        let first = try storeRow(segment, in: db, firstSequence: firstSequence)
        try post(segment, first: first, in: db, filter: segment)
        try writeFilter(segment, in: db)
    }

    /// Writes `segment` (at least one record) as the next row of `segments`, without its postings,
    /// in the caller's transaction; returns its `first_seq`. The records are bound without a copy
    /// (`SQLITE_STATIC`). Until `post` writes them, the segment is in the unposted tail, which
    /// queries read whole (`unpostedAfter`).
    @discardableResult
    static func storeRow(_ segment: SegmentBuilder, in db: Database, firstSequence: Int64? = nil) throws -> Int64 {
        let first = try firstSequence ?? nextSequence(db)
        let last = first + Int64(segment.count) - 1
        try segment.withBytes { bytes in
            let statement = try db.cachedStatement(sql: insertSegmentSQL).sqliteStatement
            let integers = [first, last, Int64(segment.count), segment.firstObserved, segment.lastObserved,
                            segment.maxObserved, segment.minTs, segment.maxTs, Int64(SegmentFormat.plain)]
            var code = SQLITE_OK
            for (index, value) in integers.enumerated() where code == SQLITE_OK {
                code = sqlite3_bind_int64(statement, CInt(index + 1), value)
            }
            if code == SQLITE_OK { code = sqlite3_bind_blob(statement, 10, bytes.baseAddress, CInt(bytes.count), nil) }
            try step(statement, code, db, insertSegmentSQL)
        }
        return first
    }

    /// Writes the postings of the stored segment `first` whose keys `segment` holds: its apps,
    /// rules and session set, and adds its sessions to the filter `owner` keeps in memory
    /// (`writeFilter` writes it), in the caller's transaction.
    static func post(_ segment: SegmentBuilder, first: Int64, in db: Database, filter owner: SegmentBuilder) throws {
        try segment.withBytes { bytes in
            let apps = try db.cachedStatement(sql: insertAppSQL).sqliteStatement
            for entry in segment.apps.entries {
                try bindTextAndStep(apps, text(entry, in: bytes), segment: first, db, insertAppSQL)
            }
            let rules = try db.cachedStatement(sql: insertRuleSQL).sqliteStatement
            for entry in segment.rules.entries {
                try bindTextAndStep(rules, text(entry, in: bytes), segment: first, db, insertRuleSQL)
            }
        }
        try storeSessions(segment, first: first, in: db, filter: owner)
    }

    /// Writes the session set of `segment` (whose `first_seq` is `first`) and adds its sessions to
    /// its bucket's filter, kept by `owner`, in the caller's transaction. The filter is read when
    /// `owner` turns to a bucket, and written by `writeFilter` (and before `owner` turns to another
    /// bucket), so that a transaction that posts many segments writes it once.
    static func storeSessions(_ segment: SegmentBuilder, first: Int64, in db: Database, filter owner: SegmentBuilder) throws {
        segment.sessionSet()
        let sets = try db.cachedStatement(sql: insertSessionSetSQL).sqliteStatement
        try segment.scratch.withUnsafeBytes { set in
            var code = sqlite3_bind_int64(sets, 1, first)
            if code == SQLITE_OK { code = sqlite3_bind_blob(sets, 2, set.baseAddress, CInt(set.count), nil) }
            try step(sets, code, db, insertSessionSetSQL)
        }
        let bucket = first >> sessionBucketShift
        if owner.filterBucket != bucket {
            try writeFilter(owner, in: db)
            let stored = try Row.fetchOne(db.cachedStatement(sql: "SELECT bits FROM session_filters WHERE bucket = ?"), arguments: [bucket])
            let bits = stored.flatMap { $0[0] as Data? }
            owner.filter.withUnsafeMutableBytes { out in
                out.initializeMemory(as: UInt8.self, repeating: 0)
                if let bits, bits.count == SessionFilter.byteCount { _ = bits.copyBytes(to: out) }
            }
            owner.filterBucket = bucket
        }
        owner.addSessionsToFilter(of: segment)
        owner.filterUnwritten = true
    }

    /// Writes the filter `owner` keeps, if sessions were added to it since it was last written.
    static func writeFilter(_ owner: SegmentBuilder, in db: Database) throws {
        guard owner.filterUnwritten, let bucket = owner.filterBucket else { return }
        let filters = try db.cachedStatement(sql: insertFilterSQL).sqliteStatement
        try owner.filter.withUnsafeBytes { bits in
            var code = sqlite3_bind_int64(filters, 1, bucket)
            if code == SQLITE_OK { code = sqlite3_bind_blob(filters, 2, bits.baseAddress, CInt(bits.count), nil) }
            try step(filters, code, db, insertFilterSQL)
        }
        owner.filterUnwritten = false
    }

    /// The unposted tail's size at which a commit writes the postings of the whole tail.
    static let postingBatch = 256

    /// The largest sequence number a history holds: 2^62, so that a sequence number plus any
    /// count of rows never overflows. Cursors and files naming one outside `1...maxSequence` are refused.
    public static let maxSequence: Int64 = 1 << 62

    /// The unposted tail's segments from which a posting commit merges them into one (`storeMerged`).
    static let mergedTailSegments = 8

    /// In the posting commit, when the unposted tail (the segments after `posted`) holds at least
    /// `mergedTailSegments` segments: rewrites them and `segment` (the commit's, whose `first_seq`
    /// would be `first`) as one segment, numbered from the tail's first, and writes its postings.
    /// Small commits so cost one posting a key a batch, not one a key a segment; sequence numbers,
    /// and so cursors, stay as they were. Returns false, having written nothing, when the tail is
    /// shorter or a record would be left out (a key twice: it would shift the numbering).
    /// `cached` is the writer's copy of the tail's records (`Tail.records`) and the tail's first
    /// `first_seq`: used instead of reading the tail back when it starts where the file's does.
    static func storeMerged(after posted: Int64, with segment: SegmentBuilder, first: Int64, in db: Database,
                            builder: SegmentBuilder, cached: (records: [UInt8], first: Int64)? = nil) throws -> Bool {
        guard let tail = try Row.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*), MIN(first_seq) FROM segments WHERE first_seq > ?"),
                                          arguments: [posted]),
              (tail[0] as Int) >= mergedTailSegments, let tailFirst = tail[1] as Int64? else { return false }
        builder.reset()
        if let cached, cached.first == tailFirst {
            try cached.records.withUnsafeBytes { try builder.appendRecords(of: $0) }
        } else {
            let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT records FROM segments WHERE first_seq > ? ORDER BY first_seq"),
                                           arguments: [posted])
            while let row = try rows.next() {
                try row.withUnsafeData(atIndex: 0) { data in
                    try data?.withUnsafeBytes { try builder.appendRecords(of: $0) }
                }
            }
        }
        try segment.withBytes { try builder.appendRecords(of: $0) }
        guard Int64(builder.count) == first + Int64(segment.count) - tailFirst else { return false }
        try db.execute(sql: "DELETE FROM segments WHERE first_seq > ?", arguments: [posted])
        try storeRow(builder, in: db, firstSequence: tailFirst)
        try post(builder, first: tailFirst, in: db, filter: segment)
        return true
    }

    /// The `first_seq` of the newest posted segment (0: none).
    static func newestPosted(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(segment) FROM segment_session_sets")) ?? 0
    }

    /// Violations in the segments not posted yet.
    static func unpostedViolations(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(SUM(count), 0) FROM segments WHERE first_seq > ?"),
                         arguments: [newestPosted(db)]) ?? 0
    }

    /// The `first_seq` after which segments have no postings yet (the unposted tail: the newest
    /// segments, read whole by queries), or nil when every segment has them or the file predates
    /// session sets. A segment is posted with its session set, so the newest set marks the end.
    static func unpostedAfter(_ db: Database) throws -> Int64? {
        guard try db.tableExists("segment_session_sets"), !(try db.tableExists("segment_sessions")) else { return nil }
        let posted = try newestPosted(db)
        let newest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(first_seq) FROM segments")) ?? 0
        return newest > posted ? posted : nil
    }

    /// Posts every stored segment after `after` and before `before`, oldest first, each one's keys
    /// read back from its records into `builder`; adds their sessions to `owner`'s filter.
    static func postStored(after: Int64, before: Int64, in db: Database, builder: SegmentBuilder, filter owner: SegmentBuilder) throws {
        let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT first_seq, records FROM segments WHERE first_seq > ? AND first_seq < ? ORDER BY first_seq"),
                                    arguments: [after, before])
        for row in rows {
            let first: Int64 = row[0]
            try row.withUnsafeData(atIndex: 1) { data in
                try data?.withUnsafeBytes { try builder.refill(from: $0) }
            }
            if builder.count > 0 { try post(builder, first: first, in: db, filter: owner) }
        }
    }

    private static func text(_ entry: KeyTable.Entry, in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[Int(entry.first)..<Int(entry.first + entry.second)])
    }

    private static func bindTextAndStep(_ statement: SQLiteStatement, _ text: UnsafeRawBufferPointer, segment: Int64,
                                        _ db: Database, _ sql: String) throws {
        var code: CInt
        if let base = text.baseAddress, text.count > 0 {
            code = sqlite3_bind_text(statement, 1, base.assumingMemoryBound(to: CChar.self), CInt(text.count), nil)
        } else {
            let empty: StaticString = ""
            code = empty.utf8Start.withMemoryRebound(to: CChar.self, capacity: 1) { sqlite3_bind_text(statement, 1, $0, 0, nil) }
        }
        if code == SQLITE_OK { code = sqlite3_bind_int64(statement, 2, segment) }
        try step(statement, code, db, sql)
    }

    /// Steps a bound statement once (unless binding failed: `code`), resets it and drops its
    /// bindings (they point at the caller's bytes); throws SQLite's error.
    static func step(_ statement: SQLiteStatement, _ code: CInt, _ db: Database, _ sql: String) throws {
        var code = code
        if code == SQLITE_OK { code = sqlite3_step(statement) }
        let reset = sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        if code == SQLITE_DONE { code = reset }
        guard code == SQLITE_OK || code == SQLITE_DONE else {
            let message = db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
    }

    /// Deletes the segments before sequence number `cut` and their postings; returns the violations they held.
    static func deleteSegments(before cut: Int64, in db: Database) throws -> Int {
        let deleted = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(count), 0) FROM segments WHERE first_seq < ?", arguments: [cut]) ?? 0
        guard deleted > 0 else { return 0 }
        try db.execute(sql: "DELETE FROM segments WHERE first_seq < ?", arguments: [cut])
        try db.execute(sql: "DELETE FROM segment_apps WHERE segment < ?", arguments: [cut])
        try db.execute(sql: "DELETE FROM segment_rules WHERE segment < ?", arguments: [cut])
        try db.execute(sql: "DELETE FROM segment_session_sets WHERE segment < ?", arguments: [cut])
        // A bucket's filter goes with its last segment; one partly deleted keeps it (it then holds
        // sessions of deleted segments too, which costs a query a bucket read for nothing).
        try db.execute(sql: "DELETE FROM session_filters WHERE bucket < ?", arguments: [cut >> sessionBucketShift])
        if try db.tableExists("segment_sessions") {
            try db.execute(sql: "DELETE FROM segment_sessions WHERE bucket <= ? AND segment < ?",
                           arguments: [(cut - 1) >> sessionBucketShift, cut])
        }
        return deleted
    }

    /// Reads the keys of the newest segments' violations (up to `limit`) into the writer's memory
    /// of recent ones, so that a replay of them after a restart is kept once: the spool writes
    /// back at most `replayBytesPerCommit` (4 MiB, some 8,000 violations) a commit, and a crash
    /// between such a commit and the spill file's update hands those over again.
    func rememberNewest(limit: Int = 16_384) throws {
        try reading { db in
            guard try Self.hasSegments(db) else { return }
            let rows = try Row.fetchCursor(db, sql: "SELECT count, records FROM segments ORDER BY first_seq DESC")
            var seen = 0
            while seen < limit, let row = try rows.next() {
                seen += row[0] as Int
                try row.withUnsafeData(atIndex: 1) { data in
                    guard let data else { return }
                    data.withUnsafeBytes { bytes in
                        for record in SegmentRecords(bytes) {
                            segment.rememberStored(idHigh: record.idHigh, idLow: record.idLow, ts: record.ts)
                        }
                    }
                }
            }
        }
    }

    /// A session's postings in `segment_sessions` (schema v5), newest first: each segment's
    /// `first_seq` and its places (8 bytes each, oldest first).
    private static func legacySessionPostings(hash: UInt64, newest: Int64, oldest: Int64, in db: Database) throws -> [(Int64, [UInt8])] {
        // One statement: a seek a bucket, newest first, inside SQLite (the buckets counted down by the CTE).
        let postings = try db.cachedStatement(sql: """
            WITH RECURSIVE buckets(bucket) AS (SELECT ? UNION ALL SELECT bucket - 1 FROM buckets WHERE bucket > ?)
            SELECT p.segment, p.records FROM buckets CROSS JOIN segment_sessions AS p
            ON p.bucket = buckets.bucket AND p.session = ? AND p.segment <= ?
            """)
        // Newest first: buckets count down, and within one a session's postings are few (sorted here).
        var postingsOfBucket: [(Int64, [UInt8])] = []
        var bucketOf: Int64 = .min
        var all: [(Int64, [UInt8])] = []
        let rows = try Row.fetchCursor(postings, arguments: [
            newest >> sessionBucketShift, oldest >> sessionBucketShift, Int64(bitPattern: hash), newest])
        while let row = try rows.next() {
            let first: Int64 = row[0]
            if first >> sessionBucketShift != bucketOf {
                all += postingsOfBucket.sorted { $0.0 > $1.0 }
                postingsOfBucket.removeAll(keepingCapacity: true)
                bucketOf = first >> sessionBucketShift
            }
            postingsOfBucket.append((first, (row[1] as Data?).map { [UInt8]($0) } ?? []))
        }
        all += postingsOfBucket.sorted { $0.0 > $1.0 }
        return all
    }

    /// Hands `body` the violations matching `query` after `cursor` (nil: from the newest),
    /// newest first, with their cursors, until `query.limit` or `body` returns false: first the
    /// rows of a `violations` table (an older file, or rows a conversion has not reached: they
    /// are newer than every segment), then the segments (`visitSegments`).
    static func visit(
        _ query: HistoryQuery, after cursor: HistoryPage.Cursor?, in db: Database,
        _ body: (_ cursor: HistoryPage.Cursor, _ row: StoredViolation) throws -> Bool
    ) throws {
        var query = query
        guard query.limit > 0 else { return }
        if try db.tableExists("violations") {
            var emitted = 0, stopped = false
            try visitRows(query, after: cursor, in: db) { at, row in
                emitted += 1
                stopped = try !body(at, row)
                return !stopped
            }
            query.limit -= emitted
            guard !stopped, query.limit > 0 else { return }
        }
        guard try hasSegments(db) else { return }
        try visitSegments(query, before: cursor?.rowid, in: db, body)
    }

    /// The segments' part of `visit`. The candidate segments, newest first, come from
    /// - a session: `segment_sessions`, one seek a bucket (1,024 sequence numbers), newest first;
    /// - else an app: `segment_apps`; else a rule: `segment_rules` (each read backwards from the newest);
    /// - else `segments` itself, backwards from its end;
    /// with an app, a rule or a session, the unposted tail first (`unpostedAfter`), read whole.
    /// Each candidate's records are read and filtered (app, rule, session, since), newest first;
    /// `since` ends the walk at the first segment whose newest observation is older. Reading
    /// stops at `query.limit` matches.
    static func visitSegments(
        _ query: HistoryQuery, before: Int64?, in db: Database,
        _ body: (_ cursor: HistoryPage.Cursor, _ row: StoredViolation) throws -> Bool
    ) throws {
        let limit = query.limit
        guard limit > 0 else { return }
        var seen = 0
        let appBytes = query.app.map { Array($0.utf8) }
        let ruleBytes = query.rule.map { Array($0.utf8) }
        let sessionBytes = query.session.map { Array($0.utf8) }
        let segment = try db.cachedStatement(sql: "SELECT first_seq, max_observed, records FROM segments WHERE first_seq = ?")
        var offsets: [Int] = []
        /// Reads one segment; false when the walk is over (limit, `body`, or `since`).
        func read(_ first: Int64) throws -> Bool {
            guard let row = try Row.fetchOne(segment, arguments: [first]) else { return true }
            if let since = query.sinceObserved, (row[1] as Int64) < since { return false }
            return try row.withUnsafeData(atIndex: 2) { data -> Bool in
                guard let data else { return true }
                return try data.withUnsafeBytes { bytes -> Bool in
                    var records = SegmentRecords(bytes)
                    var all: [SegmentRecord] = []
                    while let record = records.next() { all.append(record) }
                    offsets.removeAll(keepingCapacity: true)
                    for index in all.indices.reversed() {
                        let sequence = first + Int64(index)
                        if let before, sequence >= before { continue }
                        let record = all[index]
                        if let since = query.sinceObserved, record.observed < since { continue }
                        if let appBytes, !record.app.elementsEqual(appBytes) { continue }
                        if let ruleBytes, !record.rule.elementsEqual(ruleBytes) { continue }
                        if let sessionBytes, !record.session.elementsEqual(sessionBytes) { continue }
                        seen += 1
                        let at = HistoryPage.Cursor(observed: record.observed, rowid: sequence)
                        guard try body(at, record.stored), seen < limit else { return false }
                    }
                    return true
                }
            }
        }
        let top = before.map { $0 - 1 } ?? .max
        // The unposted tail (the newest segments, fewer than `postingBatch` violations) has no
        // postings: read whole, newest first, before the postings lead to the older segments.
        if query.session != nil || query.app != nil || query.rule != nil, let after = try unpostedAfter(db) {
            let tail = try Int64.fetchAll(db.cachedStatement(sql: """
                SELECT first_seq FROM segments WHERE first_seq > ? AND first_seq <= ? ORDER BY first_seq DESC
                """), arguments: [after, top])
            for first in tail {
                guard try read(first) else { return }
            }
        }
        if let session = query.session {
            guard let newest = try Int64.fetchOne(db, sql: "SELECT first_seq FROM segments WHERE first_seq <= ? ORDER BY first_seq DESC LIMIT 1", arguments: [top]),
                  let oldest = try Int64.fetchOne(db, sql: "SELECT first_seq FROM segments ORDER BY first_seq LIMIT 1") else { return }
            let hash = FNV1a64.hash(session)
            // The session's records only, each read from its segment's blob at the offset its posting gives.
            var blob = SegmentBlob(db)
            defer { blob.close() }
            /// Reads the records at `places` (8 bytes each, oldest first) of segment `first`, newest
            /// first; false when the walk is over.
            func readPlaces(_ first: Int64, _ places: UnsafeRawBufferPointer) throws -> Bool {
                guard try blob.open(first) else { return true }
                var at = places.count - 8
                while at >= 0 {
                    let index = Int64(UInt32(littleEndian: places.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
                    let offset = Int(UInt32(littleEndian: places.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)))
                    at -= 8
                    let sequence = first + index
                    if let before, sequence >= before { continue }
                    guard let found = try blob.record(at: offset, { record -> Bool? in
                        if let since = query.sinceObserved, record.observed < since { return nil }
                        if let appBytes, !record.app.elementsEqual(appBytes) { return nil }
                        if let ruleBytes, !record.rule.elementsEqual(ruleBytes) { return nil }
                        if let sessionBytes, !record.session.elementsEqual(sessionBytes) { return nil }
                        seen += 1
                        return try body(HistoryPage.Cursor(observed: record.observed, rowid: sequence), record.stored) && seen < limit
                    }) else { continue }
                    guard found else { return false }
                }
                return true
            }
            // Segments not yet converted to session sets (a file of schema v5 whose conversion has not
            // ended) are the newest ones: their postings first.
            if try db.tableExists("segment_sessions") {
                for (first, places) in try legacySessionPostings(hash: hash, newest: newest, oldest: oldest, in: db) {
                    guard try places.withUnsafeBytes({ try readPlaces(first, $0) }) else { return }
                }
            }
            guard try db.tableExists("session_filters") else { return }
            // The buckets whose filter may hold the session, newest first; then, bucket by bucket,
            // the session sets of its segments, newest first.
            var buckets: [Int64] = []
            let filters = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT bucket, bits FROM session_filters WHERE bucket BETWEEN ? AND ? ORDER BY bucket DESC"),
                arguments: [oldest >> sessionBucketShift, newest >> sessionBucketShift])
            while let row = try filters.next() {
                let holds = try row.withUnsafeData(atIndex: 1) { data in
                    data.map { $0.withUnsafeBytes { SessionFilter.mayContain(hash, in: $0) } } ?? false
                }
                if holds { buckets.append(row[0]) }
            }
            let sets = try db.cachedStatement(sql: """
                SELECT segment, sessions FROM segment_session_sets WHERE segment BETWEEN ? AND ? ORDER BY segment DESC
                """)
            var found: [(Int64, [UInt8])] = []
            for bucket in buckets {
                found.removeAll(keepingCapacity: true)
                let rows = try Row.fetchCursor(sets, arguments: [bucket << sessionBucketShift, min(newest, ((bucket + 1) << sessionBucketShift) - 1)])
                while let row = try rows.next() {
                    let places = try row.withUnsafeData(atIndex: 1) { data in
                        data.flatMap { $0.withUnsafeBytes { SessionSet($0).places(of: hash).map { [UInt8]($0) } } }
                    }
                    if let places { found.append((row[0], places)) }
                }
                for (first, places) in found {
                    guard try places.withUnsafeBytes({ try readPlaces(first, $0) }) else { return }
                }
            }
            return
        }
        let candidates: Statement
        var arguments: [any DatabaseValueConvertible] = []
        if let app = query.app {
            candidates = try db.cachedStatement(sql: "SELECT segment FROM segment_apps WHERE app = ? AND segment <= ? ORDER BY segment DESC LIMIT 256")
            arguments = [app, top]
        } else if let rule = query.rule {
            candidates = try db.cachedStatement(sql: "SELECT segment FROM segment_rules WHERE rule = ? AND segment <= ? ORDER BY segment DESC LIMIT 256")
            arguments = [rule, top]
        } else {
            candidates = try db.cachedStatement(sql: "SELECT first_seq FROM segments WHERE first_seq <= ? ORDER BY first_seq DESC LIMIT 256")
            arguments = [top]
        }
        // Candidates in slices, so that no cursor stays open while a segment is read.
        var upper = top
        while true {
            let slice = try Int64.fetchAll(candidates, arguments: StatementArguments(arguments.dropLast() + [upper]))
            guard !slice.isEmpty else { return }
            for first in slice {
                guard try read(first) else { return }
                upper = first - 1
            }
        }
    }
}
