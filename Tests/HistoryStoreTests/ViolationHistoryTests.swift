import Foundation
import ModalwatchTesting
import GRDB
@testable import HistoryStore
import XCTest

/// The history store on a real SQLite file: write, find, retention, read-only readers.
final class ViolationHistoryTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "mw-history").url
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func row(_ n: Int, app: String = "com.a", rule: String = "alert-frequency", observed: Int64) -> StoredViolation {
        StoredViolation(
            id: String(format: "%032x", n), fingerprint: String(format: "%016x", n), rule: rule, app: app,
            session: "S\(n % 3)", severity: "warning", ts: 1000 + Int64(n), observed: observed,
            json: #"{"v":1,"id":"\#(String(format: "%032x", n))","rule":"\#(rule)"}"#)
    }

    func testWritesFindsAndFilters() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        try history.insert((0..<10).map { row($0, app: $0 < 5 ? "com.a" : "com.b", rule: $0 % 2 == 0 ? "r-even" : "r-odd", observed: 100 + Int64($0)) })
        XCTAssertEqual(try history.count(), 10)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 3)).map(\.observed), [109, 108, 107], "newest first")
        XCTAssertEqual(try history.find(HistoryQuery(app: "com.b", limit: 100)).count, 5)
        XCTAssertEqual(try history.find(HistoryQuery(app: "com.a", rule: "r-even", limit: 100)).count, 3)
        XCTAssertEqual(try history.find(HistoryQuery(sinceObserved: 107, limit: 100)).count, 3)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 0)).count, 0)
    }

    func testSmallCommitsAreMergedIntoOneSegmentWhenTheirPostingsAreWritten() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let history = try ViolationHistory(path: path)
        // Commits of ten: the 26th brings the unposted tail to 256 and merges the 26 segments.
        let commits = 30, size = 10
        for commit in 0..<commits {
            try history.insert((commit * size..<(commit + 1) * size).map {
                row($0, app: $0 % 2 == 0 ? "com.even" : "com.odd", rule: "r\($0 % 5)", observed: Int64($0))
            })
        }
        let raw = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let shapes = try raw.read { db in try String.fetchAll(db, sql: "SELECT first_seq || '-' || last_seq || ':' || count FROM segments ORDER BY first_seq") }
        XCTAssertEqual(shapes, ["1-260:260", "261-270:10", "271-280:10", "281-290:10", "291-300:10"],
                       "the tail and the posting commit's segment as one, the commits after it one each")
        let apps = try raw.read { db in try String.fetchAll(db, sql: "SELECT app || '@' || segment FROM segment_apps ORDER BY app, segment") }
        XCTAssertEqual(apps, ["com.even@1", "com.odd@1"], "one posting a key for the merged segment")
        XCTAssertEqual(try raw.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM segment_session_sets") }, 1)
        // Every query finds the same violations, in the same order, as without the merge.
        XCTAssertEqual(try history.count(), commits * size)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 1000)).map(\.observed), (0..<Int64(commits * size)).reversed().map { $0 })
        XCTAssertEqual(try history.find(HistoryQuery(app: "com.odd", limit: 1000)).map(\.observed),
                       (0..<Int64(commits * size)).reversed().filter { $0 % 2 == 1 })
        XCTAssertEqual(try history.find(HistoryQuery(rule: "r3", limit: 1000)).map(\.observed),
                       (0..<Int64(commits * size)).reversed().filter { $0 % 5 == 3 })
        XCTAssertEqual(try history.find(HistoryQuery(session: "S1", limit: 1000)).map(\.observed),
                       (0..<Int64(commits * size)).reversed().filter { $0 % 3 == 1 })
        // Pages: a cursor inside the merged segment goes on where it stopped.
        var seen: [Int64] = [], cursor: HistoryPage.Cursor?
        repeat {
            let page = try history.findPage(HistoryQuery(limit: 7), after: cursor, maxBytes: 1 << 20)
            seen += page.rows.map(\.observed)
            cursor = page.next
        } while cursor != nil
        XCTAssertEqual(seen, (0..<Int64(commits * size)).reversed().map { $0 })
        // Reopened: the writer goes on numbering after the last segment, through its C API commits.
        let reopened = try ViolationHistory(path: path)
        try reopened.insert([row(10_000, observed: 10_000)])
        try reopened.insert([row(10_001, observed: 10_001)])
        XCTAssertEqual(try raw.read { db in try String.fetchAll(db, sql: "SELECT first_seq || '-' || last_seq FROM segments WHERE first_seq > 300 ORDER BY first_seq") },
                       ["301-301", "302-302"])
        XCTAssertEqual(try reopened.find(HistoryQuery(limit: 2)).map(\.observed), [10_001, 10_000])
    }

    func testTheSameViolationIdIsKeptOnce() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        try history.insert([row(1, observed: 1), row(1, observed: 2)])
        try history.insert([row(1, observed: 3)])
        XCTAssertEqual(try history.count(), 1)
    }

    func testRetentionByAgeAndByRows() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        // Ten commits of ten: retention drops whole segments.
        for commit in 0..<10 { try history.insert((commit * 10..<commit * 10 + 10).map { row($0, observed: Int64($0) * 1000) }) }
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: 50_000, maxRows: nil), 50)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 1000)).map(\.observed).min(), 50_000)
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: nil, maxRows: 20), 30)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 1000)).map(\.observed).min(), 80_000, "the newest 20 stay")
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: nil, maxRows: 20), 0)
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: nil, maxRows: 15), 0, "a segment holding one of the newest 15 stays whole")
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: nil, maxRows: 10), 10)
        XCTAssertEqual(try history.count(), 10)
    }

    func testAReadOnlyReaderSeesCommittedRowsWhileTheWriterIsOpen() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let writer = try ViolationHistory(path: path)
        try writer.insert([row(1, observed: 1)])
        let reader = try ViolationHistory(path: path, readOnly: true)
        XCTAssertEqual(try reader.count(), 1)
        try writer.insert([row(2, observed: 2)])
        XCTAssertEqual(try reader.count(), 2)
        XCTAssertThrowsError(try reader.insert([row(3, observed: 3)]), "a reader cannot write")
    }

    func testTheFileIsInWALMode() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        _ = try ViolationHistory(path: path)
        let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(20)
        XCTAssertEqual(header[18], 2, "SQLite file format version 2 means WAL")
    }

    // MARK: - Schema v2: ids and fingerprints as bytes

    /// A violation as the daemon hands it over: columns as bytes, the JSON as published.
    private struct Published {
        var idHigh: UInt64, idLow: UInt64, fingerprint: UInt64
        var rule: String, app: String, session: String, severity: String, ts: Int64, observed: Int64
        var id: String { hex(idHigh) + hex(idLow) }
        var json: String { #"{"v":1,"id":"\#(id)","fingerprint":"\#(hex(fingerprint))","session":"\#(session)"}"# }
        func hex(_ value: UInt64) -> String { String(format: "%016llx", value) }
    }

    private func write(_ history: ViolationHistory, _ violations: [Published]) throws -> Int {
        try history.write { writer in
            for v in violations {
                var (rule, app, session, severity, json) = (v.rule, v.app, v.session, v.severity, v.json)
                try rule.withUTF8 { rule in try app.withUTF8 { app in try session.withUTF8 { session in
                    try severity.withUTF8 { severity in try json.withUTF8 { json in
                        try writer.insert(
                            idHigh: v.idHigh, idLow: v.idLow, fingerprint: v.fingerprint, rule: UnsafeRawBufferPointer(rule),
                            app: UnsafeRawBufferPointer(app), session: UnsafeRawBufferPointer(session),
                            severity: UnsafeRawBufferPointer(severity), ts: v.ts, observed: v.observed, json: UnsafeRawBufferPointer(json))
                    } }
                } } }
            }
        }
    }

    func testTheWriterStoresBytesAndFindReadsTheSameHexBack() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let history = try ViolationHistory(path: path)
        let violations = [
            // Leading zero nibbles and bytes: the hex keeps every digit.
            Published(idHigh: 0x0000_00ab_cdef_0001, idLow: 0x0f00_0000_0000_0000, fingerprint: 0x0000_0000_0000_0001,
                      rule: "alert-frequency", app: "com.a", session: "S1", severity: "warning", ts: 1000, observed: 10),
            Published(idHigh: .max, idLow: .max, fingerprint: .max,
                      rule: "modal-depth", app: "com.b", session: "", severity: "error", ts: 2000, observed: 11),
            Published(idHigh: 0x8000_0000_0000_0000, idLow: 1, fingerprint: 0x1234_5678_9abc_def0,
                      rule: "alert-pronoun", app: "com.a", session: "Séance “1”", severity: "info", ts: -5, observed: 12),
        ]
        XCTAssertEqual(try write(history, violations), 3)
        let found = try history.find(HistoryQuery(limit: 10))
        XCTAssertEqual(found.map(\.id), violations.reversed().map(\.id), "newest first, the published hex")
        XCTAssertEqual(found.map(\.fingerprint), violations.reversed().map { $0.hex($0.fingerprint) })
        XCTAssertEqual(found.map(\.json), violations.reversed().map(\.json), "the JSON exactly as published")
        XCTAssertEqual(found.map(\.session), ["Séance “1”", "", "S1"], "an empty session is the empty string, not NULL")
        XCTAssertEqual(found.map(\.ts), [-5, 2000, 1000])
        XCTAssertEqual(found.map(\.severity), ["info", "error", "warning"])
        XCTAssertEqual(try history.find(HistoryQuery(session: "S1", limit: 10)).map(\.id), [violations[0].id])
        XCTAssertEqual(try history.find(HistoryQuery(session: "", limit: 10)).map(\.id), [violations[1].id])

        // On disk: one segment a commit, numbered by sequence, and its postings.
        let raw = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let shapes = try raw.read { db in
            try Row.fetchAll(db, sql: "SELECT first_seq, last_seq, count, format, typeof(records) FROM segments ORDER BY first_seq")
        }
        XCTAssertEqual(shapes.map { "\($0[0] as Int)-\($0[1] as Int):\($0[2] as Int):\($0[3] as Int):\($0[4] as String)" },
                       ["1-3:3:1:blob"], "one commit, one segment")
        let apps = { try raw.read { db in try String.fetchAll(db, sql: "SELECT app || '@' || segment FROM segment_apps ORDER BY app, segment") } }
        XCTAssertEqual(try apps(), [], "a small commit writes no postings: queries read the unposted tail whole")
        XCTAssertEqual(try history.find(HistoryQuery(app: "com.b", limit: 10)).map(\.id), [violations[1].id])
        let batch = (0..<ViolationHistory.postingBatch).map { n in
            Published(idHigh: 1 << 40, idLow: UInt64(n), fingerprint: 1, rule: "modal-depth", app: "com.c", session: "S2",
                      severity: "error", ts: 3000, observed: 20)
        }
        XCTAssertEqual(try write(history, batch), batch.count)
        XCTAssertEqual(try apps(), ["com.a@1", "com.b@1", "com.c@4"], "one posting an app a segment, the tail's with the batch's")
        XCTAssertFalse(try raw.read { db in try db.tableExists("violations") }, "a new file has no table of one row a violation")
        XCTAssertEqual(try history.appliedMigrations(), ["v1", "v2", "v3", "v4", "v5", "v6"])
    }

    func testQueriesFindTheUnpostedTailAndThePostedSegmentsAlike() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        var history = try ViolationHistory(path: path)
        var written: [Published] = []
        let apps = ["com.a", "com.b", "com.c"], rules = ["r1", "r2", "r3", "r4", "r5"]
        // Commits of one to three violations: postings come in batches, a tail stays unposted.
        var n = 0
        func check(_ when: String) throws {
            for app in apps {
                let expected = written.filter { $0.app == app }.reversed().map(\.id)
                XCTAssertEqual(try history.find(HistoryQuery(app: app, limit: 10_000)).map(\.id), expected, "app \(app), \(when)")
                var scanned = 0
                try history.scan(app: app) { violation, _ in
                    XCTAssertEqual(violation.app, app)
                    scanned += 1
                }
                XCTAssertEqual(scanned, expected.count, "scan of \(app), \(when)")
            }
            for rule in rules {
                let expected = written.filter { $0.rule == rule }.reversed().map(\.id)
                XCTAssertEqual(try history.find(HistoryQuery(rule: rule, limit: 10_000)).map(\.id), expected, "rule \(rule), \(when)")
            }
            for session in ["S0", "S7", "S12"] {
                let expected = written.filter { $0.session == session }.reversed().map(\.id)
                XCTAssertEqual(try history.find(HistoryQuery(session: session, limit: 10_000)).map(\.id), expected, "session \(session), \(when)")
            }
        }
        for round in 0..<3 {
            for _ in 0..<130 {
                let commit = (0..<(1 + n % 3)).map { _ -> Published in
                    n += 1
                    return Published(idHigh: 5, idLow: UInt64(n), fingerprint: UInt64(n), rule: rules[n % 5], app: apps[n % 3],
                                     session: "S\(n % 13)", severity: "info", ts: Int64(n), observed: Int64(n))
                }
                XCTAssertEqual(try write(history, commit), commit.count)
                written += commit
            }
            try check("round \(round)")
            // A writer opened again counts the tail from the file.
            history = try ViolationHistory(path: path)
            try check("round \(round), reopened")
        }
        let raw = try ViolationHistory(path: path, readOnly: true)
        XCTAssertEqual(try raw.count(), written.count)
        XCTAssertEqual(try raw.find(HistoryQuery(app: "com.b", limit: 10_000)).count, written.filter { $0.app == "com.b" }.count,
                       "a reader finds the tail too")
    }

    func testTheWriterKeepsAReplayedIdOnce() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        let v = Published(idHigh: 7, idLow: 9, fingerprint: 3, rule: "r", app: "a", session: "s", severity: "info", ts: 1, observed: 1)
        var later = v
        later.observed = 2
        XCTAssertEqual(try write(history, [v, later]), 2, "both handed over")
        XCTAssertEqual(try write(history, [later]), 1)
        XCTAssertEqual(try history.count(), 1)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 10)).map(\.observed), [1], "the first one stays")
        var other = v
        other.idLow = 10
        XCTAssertEqual(try write(history, [other]), 1)
        XCTAssertEqual(try history.count(), 2, "ids differing in the low half are two violations")
    }

    /// A commit whose replays are among new violations: the replays are left out, the others
    /// stored in order, and found by their session.
    func testACommitLeavesOutItsReplaysAndKeepsTheRest() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        func violation(_ low: UInt64, session: String, observed: Int64) -> Published {
            Published(idHigh: 5, idLow: low, fingerprint: low, rule: "r", app: "a", session: session, severity: "info", ts: Int64(low), observed: observed)
        }
        XCTAssertEqual(try write(history, [violation(1, session: "s1", observed: 1), violation(2, session: "s2", observed: 2)]), 2)
        let mixed = [violation(3, session: "s2", observed: 3), violation(1, session: "s1", observed: 4),
                     violation(4, session: "s1", observed: 5), violation(2, session: "s2", observed: 6),
                     violation(3, session: "s2", observed: 7)]
        XCTAssertEqual(try write(history, mixed), 5, "all five handed over")
        XCTAssertEqual(try history.count(), 4, "two replays and a repeat left out")
        XCTAssertEqual(try history.find(HistoryQuery(limit: 10)).map(\.observed).sorted(), [1, 2, 3, 5])
        XCTAssertEqual(try history.find(HistoryQuery(session: "s1", limit: 10)).map(\.observed).sorted(), [1, 5])
        XCTAssertEqual(try history.find(HistoryQuery(session: "s2", limit: 10)).map(\.observed).sorted(), [2, 3])
        XCTAssertEqual(try write(history, [violation(4, session: "s1", observed: 8)]), 1)
        XCTAssertEqual(try history.count(), 4, "the one stored by the mixed commit counts as stored")
    }

    /// Commits of 1 to 40 violations, some of them replays of violations this writer stored (the
    /// ones `RecentIDs` remembers), some failing on a lock another connection holds, the writer
    /// opened again now and then: the file never holds fewer violations than the model stored, and
    /// holds every one of them (checked every 25 commits, and by session at the end), through the
    /// small commits, the posting commits' merges from the writer's copy of the tail or from the
    /// file, and the replays left out.
    func testRandomCommitsReplaysFailuresAndReopeningsLoseNothing() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        var history = try ViolationHistory(path: path, busyTimeout: 0.01)
        var generator = SystemRandomNumberGenerator()
        var stored: [UInt64: Published] = [:]
        // What this writer stored: a writer opened again remembers only the file's newest segments.
        var storedHere: [Published] = []
        var next: UInt64 = 0
        for step in 0..<400 {
            let size = Int.random(in: 1...40, using: &generator)
            var commit: [Published] = []
            for _ in 0..<size {
                if !storedHere.isEmpty, Int.random(in: 0..<6, using: &generator) == 0 {
                    commit.append(storedHere.randomElement(using: &generator)!)  // a replay
                } else {
                    next += 1
                    commit.append(Published(idHigh: 9, idLow: next, fingerprint: next, rule: "r\(next % 3)", app: "a\(next % 2)",
                                            session: "S\(next % 7)", severity: "info", ts: Int64(next), observed: Int64(next)))
                }
            }
            switch Int.random(in: 0..<12, using: &generator) {
            case 0:
                // Another connection holds the write lock: the commit fails and stores nothing.
                let other = try DatabaseQueue(path: path)
                try other.writeWithoutTransaction { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    XCTAssertThrowsError(try write(history, commit), "step \(step): a commit under another's lock")
                    try db.execute(sql: "ROLLBACK")
                }
            case 1:
                history = try ViolationHistory(path: path, busyTimeout: 0.01)
                storedHere = []
                fallthrough
            default:
                XCTAssertEqual(try write(history, commit), commit.count, "step \(step)")
                for v in commit where stored[v.idLow] == nil {
                    stored[v.idLow] = v
                    storedHere.append(v)
                }
            }
            // A replay is left out while `RecentIDs` remembers its key; one whose slot a newer key
            // took is stored again (the table bounds memory, not the answer). Nothing is ever lost.
            XCTAssertGreaterThanOrEqual(try history.count(), stored.count, "step \(step)")
            if step % 25 == 24 {
                XCTAssertEqual(Set(try history.find(HistoryQuery(limit: 100_000)).map(\.id)), Set(stored.values.map(\.id)), "step \(step)")
            }
        }
        for session in (0..<7).map({ "S\($0)" }) {
            XCTAssertEqual(Set(try history.find(HistoryQuery(session: session, limit: 100_000)).map(\.id)),
                           Set(stored.values.filter { $0.session == session }.map(\.id)), "session \(session)")
        }
    }

    func testAWriteThatThrowsStoresNothing() throws {
        struct Stop: Error {}
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        let v = Published(idHigh: 1, idLow: 1, fingerprint: 1, rule: "r", app: "a", session: "s", severity: "info", ts: 1, observed: 1)
        XCTAssertThrowsError(try history.write { writer in
            var (r, a, s, sev, j) = (v.rule, v.app, v.session, v.severity, v.json)
            try r.withUTF8 { r in try a.withUTF8 { a in try s.withUTF8 { s in try sev.withUTF8 { sev in try j.withUTF8 { j in
                try writer.insert(idHigh: 1, idLow: 1, fingerprint: 1, rule: UnsafeRawBufferPointer(r), app: UnsafeRawBufferPointer(a),
                                  session: UnsafeRawBufferPointer(s), severity: UnsafeRawBufferPointer(sev), ts: 1, observed: 1,
                                  json: UnsafeRawBufferPointer(j))
            } } } } }
            throw Stop()
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(try history.count(), 0, "the transaction rolled back")
        XCTAssertEqual(try write(history, [v]), 1, "the store still writes afterwards")
    }

    func testInsertRefusesIdsThatAreNotHex() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        var bad = row(1, observed: 1)
        bad.id = "not-hex-\(String(repeating: "0", count: 24))"
        XCTAssertThrowsError(try history.insert([row(2, observed: 2), bad])) { error in
            XCTAssertTrue("\(error)".contains("not 32 hex digits"), "\(error)")
        }
        var short = row(3, observed: 3)
        short.fingerprint = "abc"
        XCTAssertThrowsError(try history.insert([short]))
        XCTAssertEqual(try history.count(), 0, "nothing of a refused batch is stored")
    }

    func testAV1FileIsConvertedToV2AndReadsTheSame() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        // Several rows in the same millisecond: newest-first breaks the tie by insertion order, which must survive.
        let rows = (0..<40).map { n in
            row(n * 7919 % 1000, app: n % 2 == 0 ? "com.a" : "com.b", rule: n % 3 == 0 ? "r3" : "r", observed: 100 + Int64(n / 4))
        }
        try HistoryFixtures.makeVersion1(at: path, rows: rows)
        let queries = [
            HistoryQuery(limit: 100), HistoryQuery(limit: 5), HistoryQuery(app: "com.b", limit: 100),
            HistoryQuery(rule: "r3", limit: 100), HistoryQuery(session: "S1", limit: 100), HistoryQuery(sinceObserved: 105, limit: 100),
        ]
        // A reader of the new code reads the old file as it is (the daemon has not converted it yet).
        let before = try queries.map { try ViolationHistory(path: path, readOnly: true).find($0) }
        XCTAssertEqual(before[0].count, 40)
        XCTAssertEqual(before[0].first?.id, rows.last?.id, "v1 read back: newest first")

        var steps: [ViolationHistory.ConversionProgress] = []
        let history = try ViolationHistory(path: path, conversionSlice: 15, progress: { steps.append($0) })
        XCTAssertEqual(try history.appliedMigrations(), ["v1", "v2", "v3", "v4", "v5", "v6"])
        XCTAssertEqual(steps.map(\.converted), [15, 30, 40], "converted in slices of 15 rows")
        XCTAssertEqual(steps.map(\.remaining), [25, 10, 0])
        XCTAssertEqual(try history.count(), 40)
        for (query, expected) in zip(queries, before) {
            XCTAssertEqual(try history.find(query), expected, "\(query) reads the same after the conversion")
        }
        let raw = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        XCTAssertFalse(try raw.read { db in try db.tableExists("violations") }, "the old table is dropped once converted")
        XCTAssertEqual(try raw.read { db in try Int.fetchOne(db, sql: "SELECT SUM(count) FROM segments") }, 40)

        // The converted file goes on working: a replay of an old id is kept once, new rows go in.
        try history.insert([rows[0], row(5000, observed: 200)])
        XCTAssertEqual(try history.count(), 41)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 1)).first?.id, String(format: "%032x", 5000))
        // Opening it again migrates nothing more.
        XCTAssertEqual(try ViolationHistory(path: path).appliedMigrations(), ["v1", "v2", "v3", "v4", "v5", "v6"])
    }

    func testTheConversionLeavesOutAndCountsARowWhoseIdIsNotHex() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        var odd = row(1, observed: 1)
        odd.id = "hand-made id"
        try HistoryFixtures.makeVersion1(at: path, rows: [row(0, observed: 0), odd, row(2, observed: 2)])
        var steps: [ViolationHistory.ConversionProgress] = []
        let history = try ViolationHistory(path: path, progress: { steps.append($0) })
        XCTAssertEqual(try history.find(HistoryQuery(limit: 10)).map(\.id), [String(format: "%032x", 2), String(format: "%032x", 0)])
        XCTAssertEqual(steps, [ViolationHistory.ConversionProgress(converted: 2, remaining: 0, leftOut: 1)])
    }

    /// A v4 file (one row a violation, as the last release wrote it: its migrations and its insert)
    /// is converted to segments when a writer opens it, a slice a transaction; every query reads
    /// the same rows, in the same order, before and after; a conversion stopped between slices
    /// goes on at the next open.
    func testAV4FileIsConvertedToSegmentsInSlicesAndReadsTheSame() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let old = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.journalMode = .wal; return c }())
        try ViolationHistory.legacyMigrator.migrate(old)
        let rows = (0..<2_500).map { n in
            row(n, app: "com.\(n % 3)", rule: "r\(n % 5)", observed: 1_000 + Int64(n / 10))
        }
        try old.write { db in
            for r in rows {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO violations (id, fingerprint, rule, app, session, severity, ts, observed, json)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [Data(HexBlob.bytes(r.id)!), Data(HexBlob.bytes(r.fingerprint)!), r.rule, r.app, r.session, r.severity, r.ts, r.observed, r.json])
            }
            // A gap, as retention leaves: the oldest rows deleted.
            try db.execute(sql: "DELETE FROM violations WHERE rowid <= 100")
        }
        try old.close()
        let queries = [
            HistoryQuery(limit: 10_000), HistoryQuery(limit: 7), HistoryQuery(app: "com.1", limit: 10_000),
            HistoryQuery(rule: "r3", limit: 50), HistoryQuery(session: "S2", limit: 10_000), HistoryQuery(sinceObserved: 1_200, limit: 10_000),
            HistoryQuery(app: "com.2", session: "S1", limit: 30),
        ]
        let before = try queries.map { try ViolationHistory(path: path, readOnly: true).find($0) }
        XCTAssertEqual(before[0].count, 2_400)

        // Stopped after two slices: the next open goes on, and readers see every row in between.
        struct Stop: Error {}
        var seen: [ViolationHistory.ConversionProgress] = []
        XCTAssertThrowsError(try ViolationHistory(path: path, conversionSlice: 1_000, progress: {
            seen.append($0)
            if seen.count == 2 { throw Stop() }
        }))
        XCTAssertEqual(seen.map(\.remaining), [1_400, 400])
        let midway = try ViolationHistory(path: path, readOnly: true)
        XCTAssertEqual(try midway.count(), 2_400)
        for (query, expected) in zip(queries, before) {
            XCTAssertEqual(try midway.find(query), expected, "\(query) midway")
        }
        var rest: [ViolationHistory.ConversionProgress] = []
        let history = try ViolationHistory(path: path, conversionSlice: 1_000, progress: { rest.append($0) })
        XCTAssertEqual(rest, [ViolationHistory.ConversionProgress(converted: 400, remaining: 0, leftOut: 0)])
        for (query, expected) in zip(queries, before) {
            XCTAssertEqual(try history.find(query), expected, "\(query) after the conversion")
        }
        var paged: [StoredViolation] = []
        var cursor: HistoryPage.Cursor?
        repeat {
            let page = try history.findPage(HistoryQuery(app: "com.1", limit: 100), after: cursor, maxBytes: 1 << 20)
            paged += page.rows
            cursor = page.next
        } while cursor != nil
        XCTAssertEqual(paged, before[2])
        // New violations follow the converted ones, and a replay of a converted one is kept once.
        try history.insert([rows[2_499], row(9_000, observed: 5_000)])
        XCTAssertEqual(try history.count(), 2_401)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 2)).map(\.id), [String(format: "%032x", 9_000), rows[2_499].id])
    }

    func testEveryQueryShapeUsesAnIndex() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let history = try ViolationHistory(path: path)
        try history.insert((0..<10).map { row($0, observed: Int64($0)) })
        let raw = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        // The shapes `visitSegments`, `prune` and `write` run (ViolationHistory+Segments.swift), and the
        // key each must be served by: without it, the query reads a whole table.
        let shapes = [
            ("SELECT first_seq FROM segments WHERE first_seq <= 5 ORDER BY first_seq DESC LIMIT 256", "USING INTEGER PRIMARY KEY"),
            ("SELECT first_seq, max_observed, records FROM segments WHERE first_seq = 3", "USING INTEGER PRIMARY KEY"),
            ("SELECT segment FROM segment_apps WHERE app = 'a' AND segment <= 5 ORDER BY segment DESC LIMIT 256", "USING PRIMARY KEY (app=? AND segment<?)"),
            ("SELECT segment FROM segment_rules WHERE rule = 'r' AND segment <= 5 ORDER BY segment DESC LIMIT 256", "USING PRIMARY KEY (rule=? AND segment<?)"),
            ("SELECT bucket, bits FROM session_filters WHERE bucket BETWEEN 0 AND 3 ORDER BY bucket DESC", "USING INTEGER PRIMARY KEY"),
            ("SELECT segment, sessions FROM segment_session_sets WHERE segment BETWEEN 0 AND 5 ORDER BY segment DESC", "USING INTEGER PRIMARY KEY"),
            ("SELECT bits FROM session_filters WHERE bucket = 0", "USING INTEGER PRIMARY KEY"),
            ("SELECT last_seq FROM segments ORDER BY first_seq DESC LIMIT 1", "SCAN segments"),
            ("DELETE FROM segment_session_sets WHERE segment < 9", "USING INTEGER PRIMARY KEY"),
            ("DELETE FROM session_filters WHERE bucket < 3", "USING INTEGER PRIMARY KEY"),
        ]
        for (sql, index) in shapes {
            let plan = try raw.read { db in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String } }
            XCTAssertTrue(plan.contains { $0.contains(index) }, "\(sql): \(plan)")
            XCTAssertFalse(plan.contains { $0.contains("TEMP B-TREE") }, "\(sql) sorts: \(plan)")
        }
    }
}
