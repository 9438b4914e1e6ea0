import ByteBasics
import Foundation
import GRDB
@testable import HistoryStore
import XCTest

/// Schema v5's session postings (one row per session per segment) converted to v6's session sets
/// and filters, on real SQLite files; and the session queries of v6 over many buckets.
final class SessionSetConversionTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mw-sessionsets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func row(_ n: Int, sessions: Int = 37, observed: Int64) -> StoredViolation {
        StoredViolation(
            id: String(format: "%032x", n), fingerprint: String(format: "%016x", n), rule: "r\(n % 4)", app: "com.\(n % 3)",
            session: "S\(n % sessions)", severity: "warning", ts: 1000 + Int64(n), observed: observed,
            json: #"{"v":1,"id":"\#(String(format: "%032x", n))"}"#)
    }

    /// Turns a v6 file into what the v5 writer made of the same commits: `segment_sessions`, one
    /// row per session and segment with the places of its records, and no v6 tables.
    private func downgradeToV5(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE segment_sessions (
                    bucket INTEGER NOT NULL, session INTEGER NOT NULL, segment INTEGER NOT NULL, records BLOB NOT NULL,
                    PRIMARY KEY (bucket, session, segment)
                ) WITHOUT ROWID;
                """)
            let segments = try Row.fetchAll(db, sql: "SELECT first_seq, records FROM segments ORDER BY first_seq")
            for segment in segments {
                let first: Int64 = segment[0]
                let data: Data = segment[1]
                var places: [UInt64: [UInt8]] = [:]
                data.withUnsafeBytes { bytes in
                    for (index, record) in SegmentRecords(bytes).enumerated() {
                        let offset = record.severity.baseAddress! - bytes.baseAddress! - SegmentFormat.headerBytes
                        withUnsafeBytes(of: (UInt32(index).littleEndian, UInt32(offset).littleEndian)) {
                            places[FNV1a64.hash(record.session), default: []] += $0
                        }
                    }
                }
                for (hash, records) in places {
                    try db.execute(sql: "INSERT INTO segment_sessions VALUES (?, ?, ?, ?)",
                                   arguments: [first >> 10, Int64(bitPattern: hash), first, Data(records)])
                }
            }
            try db.execute(sql: "DROP TABLE segment_session_sets; DROP TABLE session_filters")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v6'")
        }
        try queue.close()
    }

    private func sessionsTable(_ path: String) throws -> (legacy: Bool, sets: Int) {
        let raw = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        return try raw.read { db in
            (try db.tableExists("segment_sessions"),
             try db.tableExists("segment_session_sets") ? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM segment_session_sets") ?? 0 : -1)
        }
    }

    /// A v5 file (commits of 1 to 700 violations over 3,000 sequence numbers: several buckets) is read
    /// as it is by a reader, converted by the writer in slices (progress after each, the stage named),
    /// stopped midway and resumed; every query reads the same rows, in the same order, before, midway
    /// and after; the old table is gone at the end and new commits go on.
    func testAV5FileIsConvertedToSessionSetsInSlicesAndReadsTheSame() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        var n = 0
        do {
            let history = try ViolationHistory(path: path)
            for size in [1, 5, 700, 3, 250, 1, 1, 900, 40, 600, 499] {
                try history.insert((n..<n + size).map { row($0, observed: 5_000 + Int64($0 / 7)) })
                n += size
            }
        }
        try downgradeToV5(path)
        XCTAssertEqual(try sessionsTable(path).legacy, true)
        let queries = (0..<37).map { HistoryQuery(session: "S\($0)", limit: 10_000) } + [
            HistoryQuery(session: "S5", limit: 7), HistoryQuery(app: "com.1", session: "S4", limit: 10_000),
            HistoryQuery(session: "S6", sinceObserved: 5_200, limit: 10_000), HistoryQuery(session: "nobody", limit: 10),
            HistoryQuery(limit: 10_000), HistoryQuery(rule: "r2", limit: 100),
        ]
        let before = try queries.map { try ViolationHistory(path: path, readOnly: true).find($0) }
        XCTAssertEqual(before[0].count, (n + 36) / 37, "a v5 reader finds every violation of S0")
        XCTAssertEqual(before[queries.count - 2].count, n)

        struct Stop: Error {}
        var seen: [ViolationHistory.ConversionProgress] = []
        XCTAssertThrowsError(try ViolationHistory(path: path, conversionSlice: 800, progress: {
            seen.append($0)
            if seen.count == 2 { throw Stop() }
        }))
        XCTAssertEqual(seen.map(\.stage), [.sessionPostings, .sessionPostings])
        XCTAssertEqual(seen.map(\.converted), [959, 1861], "slices of whole segments, until 800 violations or more")
        XCTAssertEqual(seen.map(\.remaining), [n - 959, n - 1861])
        let midway = try sessionsTable(path)
        XCTAssertTrue(midway.legacy)
        XCTAssertEqual(midway.sets, 8, "the oldest eight segments have their sets")
        let reader = try ViolationHistory(path: path, readOnly: true)
        for (query, expected) in zip(queries, before) {
            XCTAssertEqual(try reader.find(query), expected, "\(query) midway")
        }

        var rest: [ViolationHistory.ConversionProgress] = []
        let history = try ViolationHistory(path: path, conversionSlice: 800, progress: { rest.append($0) })
        XCTAssertEqual(rest.last?.remaining, 0)
        XCTAssertEqual(rest.last?.converted, n - 1861)
        XCTAssertEqual(try history.appliedMigrations(), ["v1", "v2", "v3", "v4", "v5", "v6"])
        let after = try sessionsTable(path)
        XCTAssertFalse(after.legacy, "the v5 table is dropped once every segment has its set")
        XCTAssertEqual(after.sets, 11)
        for (query, expected) in zip(queries, before) {
            XCTAssertEqual(try history.find(query), expected, "\(query) after the conversion")
        }
        // New commits go on into the converted file, and a session's query finds old and new.
        try history.insert([row(n, observed: 9_000)])
        XCTAssertEqual(try history.find(HistoryQuery(session: "S\(n % 37)", limit: 1)).first?.id, String(format: "%032x", n))
        XCTAssertEqual(try history.find(HistoryQuery(session: "S\(n % 37)", limit: 10_000)).count, before[n % 37].count + 1)
        var again: [ViolationHistory.ConversionProgress] = []
        _ = try ViolationHistory(path: path, progress: { again.append($0) })
        XCTAssertEqual(again, [], "nothing more to convert")
    }

    /// A session's query over many buckets and commit sizes: the filters skip the buckets without
    /// it and miss none with it; pages (the cursor) and retention keep it right.
    func testSessionQueriesThroughFiltersAcrossBucketsAndRetention() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        var n = 0
        var expected: [String: [String]] = [:]
        for size in [1, 2, 1_500, 7, 1_000, 3, 3_000, 1, 800] {
            let rows = (n..<n + size).map { row($0, sessions: 2_000, observed: Int64($0)) }
            try history.insert(rows)
            for r in rows { expected[r.session, default: []].insert(r.id, at: 0) }
            n += size
        }
        for session in ["S0", "S1", "S999", "S1999", "S1234"] {
            XCTAssertEqual(try history.find(HistoryQuery(session: session, limit: 100_000)).map(\.id), expected[session] ?? [], session)
            var paged: [String] = []
            var cursor: HistoryPage.Cursor?
            repeat {
                let page = try history.findPage(HistoryQuery(session: session, limit: 2), after: cursor, maxBytes: 1 << 20)
                paged += page.rows.map(\.id)
                cursor = page.next
            } while cursor != nil
            XCTAssertEqual(paged, expected[session] ?? [], "\(session), two at a time")
        }
        XCTAssertEqual(try history.find(HistoryQuery(session: "S2000", limit: 10)), [])
        // Retention to the newest 3,801 (the last three commits): older buckets' filters and sets go.
        XCTAssertEqual(try history.prune(now: 0, maxAgeMs: nil, maxRows: 3_801), n - 3_801)
        let kept = Set((n - 3_801..<n).map { String(format: "%032x", $0) })
        XCTAssertEqual(try history.find(HistoryQuery(session: "S7", limit: 100_000)).map(\.id), expected["S7"]!.filter(kept.contains))
    }
}
