import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The history store in SQLite: every violation the daemon publishes, written first, in
/// an SQLite file in the state directory (WAL: a commit survives the process
/// being killed). The daemon writes from one thread; readers may open the same
/// file read-only at any time.
///
/// Schema v6 (`schemaV5`, `schemaV6`): each commit is one row of `segments`, its violations'
/// records as they were handed over (`SegmentFormat`; the small segments of an unposted tail are
/// merged into one when their postings are written), with small posting tables naming the
/// segments that hold an app or a rule, one row of `segment_session_sets` naming the segment's
/// sessions, and a filter of sessions a bucket of segments (`session_filters`). The postings are
/// written for a batch of segments at once (`postingBatch` violations), so the newest segments,
/// the unposted tail, have none. Queries go through the postings to the segments, read the tail
/// whole, and filter inside the segments; retention deletes whole segments. A file
/// of an older schema is converted when the writer opens it, in slices
/// (`ViolationHistory+Conversion.swift`): one row a violation (v1 to v4) to segments; v5's one
/// posting row a session and segment to session sets.
///
/// Sendable: the counts of the unposted tail are in the `writing` mutex, taken once a commit or
/// prune; the two builders are used only with it held (`nonisolated(unsafe)`: a commit hands
/// the segment to the caller's closure, which the compiler cannot tie to the lock); the rest is `let`.
public final class ViolationHistory: HistoryStoring, Sendable {
    /// The file name inside the state directory.
    public static let fileName = "history.sqlite"

    let database: DatabaseQueue
    /// The file.
    public let path: String
    /// The segment of the commit being written; its buffers are kept from one commit to the next.
    /// Used only with `writing` held (and by `init`, before the store is shared).
    nonisolated(unsafe) let segment = SegmentBuilder()
    /// Reads an unposted segment's keys back from its records when its postings are written.
    /// Used only with `writing` held.
    nonisolated(unsafe) private let postingBuilder = SegmentBuilder()
    /// The writer's counts between commits; held for a whole commit or prune, and by every other
    /// use of a writer's connection (`reading`, `checkpointTruncating`), since `appender` steps
    /// it outside GRDB's queue.
    private let writing = Mutex(Tail())
    /// The commit of a segment without postings on SQLite's C API (a writer's; nil for a reader).
    /// Set by `init`, then used only with `writing` held.
    nonisolated(unsafe) private var appender: SegmentAppender?

    /// What the writer knows of the unposted tail.
    private struct Tail {
        /// Violations in the unposted tail (nil: unknown, counted by the next commit).
        var unposted: Int?
        /// Segments in the unposted tail (nil: unknown, counted by the posting commit).
        var unpostedSegments: Int?
        /// The sequence number of the next stored violation (nil: unknown, read by the next commit).
        var nextSequence: Int64?
        /// The records of the unposted tail's segments in order, after one format byte, as they
        /// were committed: what the posting commit merges (`storeMerged`), so that it need not read
        /// them back from the file (nil: unknown, read from the file; empty: no segment yet). At
        /// most `postingBatch` violations.
        var records: [UInt8]?
        /// The `first_seq` of the tail's first segment, while `records` holds any.
        var recordsFirst: Int64?

        /// After a segment that joins the unposted tail is committed (numbered from `first`):
        /// its records join the copy.
        mutating func keep(_ segment: SegmentBuilder, first: Int64) {
            guard records != nil else { return }
            if records!.isEmpty {
                // The buffer is made once, by the first small commit, and kept from batch to batch.
                records!.reserveCapacity(256 << 10)
                records!.append(SegmentFormat.plain)
                recordsFirst = first
            }
            segment.withBytes { records!.append(contentsOf: $0.dropFirst()) }
        }

        /// After the tail is posted: empty, and known. Its buffer is kept (a buffer past the
        /// allocator's mmap threshold made afresh each time would be mapped, faulted in and unmapped
        /// again for every batch).
        mutating func posted() {
            if records == nil { records = [] }
            records!.removeAll(keepingCapacity: true)
            recordsFirst = nil
        }

        /// The copy of the tail's records, when it is known and holds any.
        var cached: (records: [UInt8], first: Int64)? {
            guard let records, records.count > 1, let recordsFirst else { return nil }
            return (records, recordsFirst)
        }
    }

    /// Opens (creating and migrating when `readOnly` is false) the store at `path`. With
    /// `checkpointsElsewhere`, this connection never checkpoints the WAL itself: a
    /// `HistoryCheckpointer` does, so that no commit waits for a checkpoint. A statement that
    /// finds the file locked by another connection waits `busyTimeout` seconds at most, then
    /// fails (`SQLITE_BUSY`). With `walSizeLimit`, a WAL that a checkpoint starts over is cut
    /// back to that many bytes (`journal_size_limit`).
    ///
    /// A writer converts a file of one row a violation (schema v4 and older) to segments, and v5's
    /// session postings to session sets, before it returns, about `conversionSlice` violations a
    /// transaction, telling `progress` after each slice.
    public init(path: String, readOnly: Bool = false, checkpointsElsewhere: Bool = false,
                busyTimeout: Double = 2, walSizeLimit: Int? = nil, conversionSlice: Int = 50_000,
                progress: (ConversionProgress) throws -> Void = { _ in }) throws {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.label = "modalwatch.history"
        if !readOnly {
            configuration.journalMode = .wal
            configuration.prepareDatabase { db in
                // 4 KiB pages for a new file (an existing one keeps its own: SQLite ignores this then).
                // Each commit writes whole pages, the table's and each index's last ones, and a small
                // commit dirties several pages a violation: at small commits (the latency run's) 4 KiB
                // pages cost fewer instructions and bytes a commit than 8 KiB, at commits of 1,000
                // slightly more instructions (docs/PERFORMANCE.md, "WAL pages: 4 KiB against 8 KiB
                // pages"). Set here, before GRDB turns WAL
                // on and the schema is made.
                try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
                // WAL + NORMAL: a commit is in the WAL file before it returns; a killed
                // process loses nothing committed (only a power loss can cost the last ones).
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // A 16 MiB page cache (docs/RELIABILITY.md, "Fault soak": 64 MiB was no faster on a
                // million rows) and fewer, larger checkpoints: the writer batches anyway.
                try db.execute(sql: "PRAGMA cache_size = -16384")
                try db.execute(sql: checkpointsElsewhere ? "PRAGMA wal_autocheckpoint = 0" : "PRAGMA wal_autocheckpoint = 16384")
                if let walSizeLimit { try db.execute(sql: "PRAGMA journal_size_limit = \(walSizeLimit)") }
            }
        }
        if readOnly {
            configuration.prepareDatabase { db in
                // Readers map the file (up to `readerMapBytes`): a session's records are read at their
                // offsets inside segments of up to a megabyte, and SQLite reaches an offset by walking
                // the segment's chain of overflow pages; mapped, each step is a pointer, not a read(2)
                // into the page cache. The mapped pages are the file system's cache, shared, not the heap.
                try db.execute(sql: "PRAGMA mmap_size = \(Self.readerMapBytes)")
            }
        }
        // SQLite's busy timeout sleeps 1, 2, 5, 10 ms… between tries: a commit that meets the
        // checkpointer's RESTART (which holds the writer off for well under a millisecond, 10 ms
        // at most) would wait several ms for nothing. So: tries every 50 µs for the first 10 ms,
        // then every millisecond, `busyTimeout` in all.
        let fineTries = 200, coarseTries = max(0, Int(busyTimeout * 1000) - 10)
        configuration.busyMode = .callback { tries in
            guard tries < fineTries + coarseTries else { return false }
            usleep(tries < fineTries ? 50 : 1000)
            return true
        }
        database = try DatabaseQueue(path: path, configuration: configuration)
        if !readOnly {
            try Self.migrator.migrate(database)
            try convertSessionPostings(sliceViolations: conversionSlice, progress: progress)
            try convertRows(sliceRows: conversionSlice, progress: progress)
            try rememberNewest()
            appender = try database.inDatabase { db in try db.sqliteConnection.map { try SegmentAppender(connection: $0) } }
        }
    }

    deinit {
        // Before GRDB closes the connection: it cannot close with statements left unfinalized.
        appender?.close()
    }

    /// Runs `body` in a read of the file; on a writer, with `writing` held (its connection is
    /// also stepped outside GRDB's queue, by `appender`).
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        guard appender != nil else { return try database.read(body) }
        nonisolated(unsafe) var result: T?
        try writing.withLock { _ in result = try database.read(body) }
        return result!
    }

    /// The most of the file a read-only connection maps (`PRAGMA mmap_size`): 1 GiB, a history of
    /// about 10^6 violations.
    static let readerMapBytes = 1 << 30

    /// The page size of a file this store creates.
    static let pageSize = 4096

    /// The v1 table, exactly as the first release created it (ids and fingerprints as hex TEXT).
    package static let schemaV1 = """
        CREATE TABLE violations (
            id TEXT PRIMARY KEY NOT NULL,
            fingerprint TEXT NOT NULL,
            rule TEXT NOT NULL,
            app TEXT NOT NULL,
            session TEXT NOT NULL,
            severity TEXT NOT NULL,
            ts INTEGER NOT NULL,
            observed INTEGER NOT NULL,
            json TEXT NOT NULL
        );
        CREATE INDEX violations_observed ON violations(observed);
        CREATE INDEX violations_app ON violations(app, observed);
        CREATE INDEX violations_rule ON violations(rule, observed);
        """

    /// The v2 table: `id` (16 bytes) and `fingerprint` (8 bytes) as big-endian BLOBs.
    ///
    /// The key that keeps a replayed violation once is `(ts, id)`, not `id` alone: the same
    /// thing, since an id is derived from the triggering event's time (a replay has the same
    /// `ts` and the same id), but cheap to keep up. Ids are random, so an index on `id` takes
    /// each new row on a random page, and every commit writes hundreds of pages of it to the
    /// WAL; `ts` follows the clock, so live violations go in at the index's end.
    ///
    /// The indexes are the ones the queries of `find` and `prune` need: `observed` for
    /// newest-first without a filter, `--since` and retention; `(app, observed)` for
    /// `--app` and the control socket's `session` (app and session); `(rule, observed)`
    /// for `--rule`. Without them each of those reads the whole table (up to a million
    /// rows), on the daemon's ingest thread when asked through the control socket.
    static let schemaV2Table = """
        CREATE TABLE violations_v2 (
            id BLOB NOT NULL,
            fingerprint BLOB NOT NULL,
            rule TEXT NOT NULL,
            app TEXT NOT NULL,
            session TEXT NOT NULL,
            severity TEXT NOT NULL,
            ts INTEGER NOT NULL,
            observed INTEGER NOT NULL,
            json TEXT NOT NULL,
            PRIMARY KEY (ts, id)
        )
        """
    static let schemaV2Indexes = """
        CREATE INDEX violations_observed ON violations(observed);
        CREATE INDEX violations_app ON violations(app, observed);
        CREATE INDEX violations_rule ON violations(rule, observed);
        """

    /// v4 is v3 without `violations_observed` (the migration drops it).
    ///
    /// The v3 table: rows in arrival order under an integer key, so that the table and
    /// every index grow at their end.
    ///
    /// `seq` (the rowid) numbers rows as they are stored; newest first is `seq DESC`.
    /// `(ts, id)` keeps a replayed violation once and grows with the event clock.
    /// `app`, `rule` and `observed` are indexed with the rowid appended (SQLite appends it
    /// to every index key), so a new row goes at the end of its app's, its rule's and the
    /// clock's run: a commit writes one leaf page per app and rule in it, not one per row.
    /// Sessions are many and their ids random, so their index is cut in buckets of
    /// 4,096 consecutive rows (`legacySessionBucketShift`): `(seq >> 12, session)`. New rows go only into
    /// the newest bucket (a few dozen pages, hot in the cache), and a session's rows are
    /// found by one index seek per bucket, newest bucket first.
    static let schemaV3Table = """
        CREATE TABLE violations_v3 (
            seq INTEGER PRIMARY KEY,
            id BLOB NOT NULL,
            fingerprint BLOB NOT NULL,
            rule TEXT NOT NULL,
            app TEXT NOT NULL,
            session TEXT NOT NULL,
            severity TEXT NOT NULL,
            ts INTEGER NOT NULL,
            observed INTEGER NOT NULL,
            json TEXT NOT NULL
        )
        """
    static let schemaV3Indexes = """
        CREATE UNIQUE INDEX violations_key ON violations(ts, id);
        CREATE INDEX violations_observed ON violations(observed);
        CREATE INDEX violations_app ON violations(app);
        CREATE INDEX violations_rule ON violations(rule);
        CREATE INDEX violations_session ON violations(seq >> 12, session);
        """
    /// Rows per bucket of the v3 session index (`seq >> 12`).
    static let legacySessionBucketShift: Int64 = 12

    /// The v5 tables (docs/spec-decisions.md, "The history file, for SQL readers").
    ///
    /// `segments`: one row a commit. `first_seq`..`last_seq` number its violations in arrival
    /// order (the next segment's `first_seq` is this one's `last_seq + 1`); `records` holds them
    /// (`SegmentFormat`). Observed and event-time bounds let `since`, retention by age and the
    /// report skip a segment without reading its records.
    ///
    /// Postings, one row for each app, rule and session present in a segment (`segment` is its
    /// `first_seq`). Apps and rules are few: their rows go in at the end of each key's run.
    /// Sessions are many: their key is the FNV-1a 64 hash of the session id's UTF-8 (signed),
    /// after a bucket, `first_seq >> 10`, so that a commit's rows go into the newest bucket (a
    /// few hot pages) and a session is found by one seek a bucket, newest first. A session's
    /// posting also says where its records are (`records`: for each, its index in the segment and
    /// its byte offset in the segment's `records`, 4 bytes each, little-endian), so that a session's
    /// violations are read from their segments without reading the rest.
    static let schemaV5 = """
        CREATE TABLE segments (
            first_seq INTEGER PRIMARY KEY,
            last_seq INTEGER NOT NULL,
            count INTEGER NOT NULL,
            first_observed INTEGER NOT NULL,
            last_observed INTEGER NOT NULL,
            max_observed INTEGER NOT NULL,
            min_ts INTEGER NOT NULL,
            max_ts INTEGER NOT NULL,
            format INTEGER NOT NULL,
            records BLOB NOT NULL
        );
        CREATE TABLE segment_apps (app TEXT NOT NULL, segment INTEGER NOT NULL, PRIMARY KEY (app, segment)) WITHOUT ROWID;
        CREATE TABLE segment_rules (rule TEXT NOT NULL, segment INTEGER NOT NULL, PRIMARY KEY (rule, segment)) WITHOUT ROWID;
        CREATE TABLE segment_sessions (
            bucket INTEGER NOT NULL, session INTEGER NOT NULL, segment INTEGER NOT NULL, records BLOB NOT NULL,
            PRIMARY KEY (bucket, session, segment)
        ) WITHOUT ROWID;
        """
    /// Sequence numbers per bucket of `session_filters` (and of the v5 `segment_sessions`):
    /// 1,024 (`first_seq >> 10`), so that a bucket's filter holds about 1,024 sessions at most
    /// (`SessionFilter`: one bucket in 200 read for nothing) and a session's query reads 1,000
    /// filters in 10^6 violations.
    static let sessionBucketShift: Int64 = 10

    /// The v6 session tables, in place of v5's `segment_sessions` (one row per session per segment):
    /// `segment_session_sets`, one row a segment (`segment` is its `first_seq`): its sessions'
    /// hashes, sorted, and where each one's records are (`SessionSet`); `session_filters`, one row a
    /// bucket of 1,024 sequence numbers: a Bloom filter of the sessions of the segments starting in
    /// it (`SessionFilter`), rewritten by each commit. A commit writes two rows for its sessions,
    /// not one a session; a session's query reads the filters, then the sets of the buckets that
    /// may hold it.
    static let schemaV6 = """
        CREATE TABLE segment_session_sets (segment INTEGER PRIMARY KEY, sessions BLOB NOT NULL);
        CREATE TABLE session_filters (bucket INTEGER PRIMARY KEY, bits BLOB NOT NULL);
        """

    /// The migrations to v4 (one row a violation): what an older release made, and the start of a
    /// new file's migrations.
    static var legacyMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: schemaV1) }
        migrator.registerMigration("v2") { db in
            // Hex TEXT to BLOB: a new table, the rows copied in their order (rowid order is
            // insertion order, the tie-break of newest-first), the old table dropped.
            db.add(function: HexBlob.function)
            try db.execute(sql: schemaV2Table)
            try db.execute(sql: """
                INSERT OR IGNORE INTO violations_v2 (id, fingerprint, rule, app, session, severity, ts, observed, json)
                SELECT \(HexBlob.name)(id), \(HexBlob.name)(fingerprint), rule, app, session, severity, ts, observed, json
                FROM violations ORDER BY rowid
                """)
            try db.execute(sql: "DROP TABLE violations")
            try db.execute(sql: "ALTER TABLE violations_v2 RENAME TO violations")
            try db.execute(sql: schemaV2Indexes)
            db.remove(function: HexBlob.function)
        }
        migrator.registerMigration("v3") { db in
            // Arrival order: the rows copied in newest-first order's reverse, numbered anew.
            try db.execute(sql: schemaV3Table)
            try db.execute(sql: """
                INSERT OR IGNORE INTO violations_v3 (id, fingerprint, rule, app, session, severity, ts, observed, json)
                SELECT id, fingerprint, rule, app, session, severity, ts, observed, json
                FROM violations ORDER BY observed, rowid
                """)
            try db.execute(sql: "DROP TABLE violations")
            try db.execute(sql: "ALTER TABLE violations_v3 RENAME TO violations")
            try db.execute(sql: schemaV3Indexes)
        }
        migrator.registerMigration("v4") { db in
            // No query reads `violations_observed` (newest first and `--since` read the table
            // backwards; retention by age reads the table from its start). One B-tree fewer per
            // row: fewer SQLite instructions and, in small commits, fewer WAL pages per violation
            // (docs/PERFORMANCE.md, "What bounds each figure").
            try db.execute(sql: "DROP INDEX IF EXISTS violations_observed")
        }
        return migrator
    }

    private static var migrator: DatabaseMigrator {
        var migrator = legacyMigrator
        migrator.registerMigration("v5") { db in
            // The segment tables; the rows of `violations` are converted afterwards, in slices
            // (`convertRows`), and the table dropped when it is empty.
            try db.execute(sql: schemaV5)
        }
        migrator.registerMigration("v6") { db in
            // The session sets and filters; v5's `segment_sessions` rows are converted afterwards, in
            // slices (`convertSessionPostings`), and the table dropped when every segment has its set.
            try db.execute(sql: schemaV6)
        }
        return migrator
    }

    /// Writes in one transaction whatever `body` inserts through the writer it is given
    /// (which must not outlive the call): one row of `segments`. Returns the number of violations
    /// handed to it. A violation already stored (the same id and `ts`: a replay) is kept once.
    /// When `body` throws, nothing of it is written.
    ///
    /// The postings (apps, rules, session sets, the bucket's filter) are written for a batch of
    /// segments at once: by the commit that brings the unposted tail to `postingBatch` violations
    /// or more; a tail of `mergedTailSegments` segments or more is then merged into one segment
    /// first (`storeMerged`). A small commit so writes one row (about one page), not five, on
    /// SQLite's C API (`SegmentAppender`); queries read the unposted tail whole.
    @discardableResult
    public func write(_ body: (inout ViolationWriter) throws -> Void) throws -> Int {
        try writing.withLock { tail throws -> Int in
            // The segment is built in memory first: `body` touches no file.
            segment.reset()
            var writer = ViolationWriter(segment: segment)
            try body(&writer)
            try segment.dropStoredLately()
            let handed = writer.count
            // Nearly every commit: a segment that leaves the unposted tail under `postingBatch`,
            // one row, on SQLite's C API (`SegmentAppender`).
            if let appender, segment.count > 0, let waiting = tail.unposted, let next = tail.nextSequence,
               waiting + segment.count < Self.postingBatch {
                do {
                    try appender.append(segment, first: next)
                } catch {
                    tail = Tail()
                    segment.filterBucket = nil
                    throw error
                }
                tail.unposted = waiting + segment.count
                tail.unpostedSegments = tail.unpostedSegments.map { $0 + 1 }
                tail.nextSequence = next + Int64(segment.count)
                tail.keep(segment, first: next)
                segment.committed()
                return handed
            }
            var waiting = tail.unposted
            var segments = tail.unpostedSegments
            var next = tail.nextSequence
            // What the commit did with the tail: posted it, or added the segment (from this number) to it.
            var postedTail = false
            var storedUnposted: Int64?
            do {
                try database.writeWithoutTransaction { db in
                    // BEGIN and COMMIT as statements prepared once: a small commit's fixed cost.
                    try Self.step(db.cachedStatement(sql: Self.beginSQL).sqliteStatement, SQLITE_OK, db, Self.beginSQL)
                    do {
                        if segment.count > 0 {
                            let before = try waiting ?? Self.unpostedViolations(db)
                            let first = try next ?? Self.nextSequence(db)
                            next = first + Int64(segment.count)
                            if before + segment.count >= Self.postingBatch {
                                let posted = before > 0 ? try Self.newestPosted(db) : 0
                                var merged = false
                                if before > 0, (segments ?? .max) >= Self.mergedTailSegments {
                                    // The copy of the tail lives only for the call: `posted()` then empties its buffer in place.
                                    merged = try Self.storeMerged(
                                        after: posted, with: segment, first: first, in: db, builder: postingBuilder, cached: tail.cached)
                                }
                                if !merged {
                                    try Self.storeRow(segment, in: db, firstSequence: first)
                                    if before > 0 {
                                        try Self.postStored(after: posted, before: first, in: db, builder: postingBuilder, filter: segment)
                                    }
                                    try Self.post(segment, first: first, in: db, filter: segment)
                                }
                                try Self.writeFilter(segment, in: db)
                                waiting = 0
                                segments = 0
                                postedTail = true
                            } else {
                                try Self.storeRow(segment, in: db, firstSequence: first)
                                waiting = before + segment.count
                                segments = segments.map { $0 + 1 }
                                storedUnposted = first
                            }
                        }
                        try Self.step(db.cachedStatement(sql: Self.commitSQL).sqliteStatement, SQLITE_OK, db, Self.commitSQL)
                    } catch {
                        if let connection = db.sqliteConnection, sqlite3_get_autocommit(connection) == 0 {
                            try? db.execute(sql: "ROLLBACK")
                        }
                        throw error
                    }
                }
                tail.unposted = waiting
                tail.unpostedSegments = segments
                tail.nextSequence = next
                if postedTail {
                    tail.posted()
                } else if let first = storedUnposted {
                    tail.keep(segment, first: first)
                }
                segment.committed()
                return handed
            } catch {
                // Counted again, and the filter read again, at the next commit.
                tail = Tail()
                segment.filterBucket = nil
                throw error
            }
        }
    }

    private static let beginSQL = SegmentAppender.beginSQL
    private static let commitSQL = SegmentAppender.commitSQL

    /// A TRUNCATE checkpoint: copies the WAL into the file and gives the WAL's blocks back to
    /// the file system (it fails while a reader still needs the WAL; nothing is lost then).
    public func checkpointTruncating() throws {
        try writing.withLock { _ in
            try database.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        }
    }

    /// Deletes the segments whose violations were all observed more than `maxAgeMs` before `now`
    /// and, past `maxRows`, the oldest segments holding none of the newest `maxRows`: whole
    /// segments, so up to one commit's violations more than `maxRows` may stay. Returns
    /// violations deleted.
    @discardableResult
    public func prune(now: Int64, maxAgeMs: Int64?, maxRows: Int?) throws -> Int {
        try writing.withLock { tail throws -> Int in
            // The unposted tail may lose segments: counted again by the next commit.
            defer {
                tail = Tail()
                segment.filterBucket = nil
            }
            return try prune(now: now, maxAgeMs: maxAgeMs, maxRows: maxRows, in: database)
        }
    }

    private func prune(now: Int64, maxAgeMs: Int64?, maxRows: Int?, in database: DatabaseQueue) throws -> Int {
        try database.write { db in
            guard try Self.hasSegments(db) else { return 0 }
            var deleted = 0
            if let maxAgeMs {
                // Segments are in arrival order: the old ones are a range from the start, up to the
                // first one holding a violation young enough (all of them when none does). (A
                // violation stored after the wall clock stepped back goes with those after it.)
                let cut = try Int64.fetchOne(db, sql: """
                    SELECT COALESCE(
                        (SELECT first_seq FROM segments WHERE max_observed >= ? ORDER BY first_seq LIMIT 1),
                        (SELECT MAX(last_seq) + 1 FROM segments))
                    """, arguments: [now.subtractingReportingOverflow(maxAgeMs).overflow ? Int64.min : now - maxAgeMs])
                if let cut { deleted += try Self.deleteSegments(before: cut, in: db) }
            }
            if let maxRows {
                // Sequence numbers are contiguous: the newest `maxRows` are those past `newest - maxRows`.
                if let newest = try Int64.fetchOne(db, sql: "SELECT last_seq FROM segments ORDER BY first_seq DESC LIMIT 1") {
                    let keepFrom = newest - Int64(maxRows) + 1
                    if let cut = try Int64.fetchOne(db, sql: """
                        SELECT first_seq FROM segments WHERE last_seq >= ? ORDER BY first_seq LIMIT 1
                        """, arguments: [keepFrom]) {
                        deleted += try Self.deleteSegments(before: cut, in: db)
                    } else {
                        deleted += try Self.deleteSegments(before: newest + 1, in: db)
                    }
                }
            }
            return deleted
        }
    }

    /// Violations matching `query`, newest first, ids and fingerprints as lowercase hex.
    /// Which postings serve which query: see `visitSegments`.
    public func find(_ query: HistoryQuery) throws -> [StoredViolation] {
        try reading { db in
            var rows: [StoredViolation] = []
            try Self.visit(query, after: nil, in: db) { _, row in
                rows.append(row)
                return true
            }
            return rows
        }
    }

    /// Violations stored.
    public func count() throws -> Int {
        try reading { db in
            var total = 0
            if try Self.hasSegments(db) { total += try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(count), 0) FROM segments") ?? 0 }
            if try db.tableExists("violations") { total += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM violations") ?? 0 }
            return total
        }
    }

    /// The schema migrations applied to the file, oldest first (`v1` … `v6`).
    public func appliedMigrations() throws -> [String] {
        try reading { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
    }
}
