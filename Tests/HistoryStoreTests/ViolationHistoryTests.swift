import Foundation
import GRDB
import ModalwatchTesting
import XCTest

@testable import HistoryStore

/// The history store on a real SQLite file: write, find, retention, read-only readers.
final class ViolationHistoryTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "mw-history").url
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func row(
        _ n: Int,
        app: String = "com.a",
        rule: String = "alert-frequency",
        observed: Int64
    ) -> StoredViolation {
        StoredViolation(
            id: String(format: "%032x", n),
            fingerprint: String(format: "%016x", n),
            rule: rule,
            app: app,
            session: "S\(n % 3)",
            severity: "warning",
            ts: 1000 + Int64(n),
            observed: observed,
            json: #"{"v":1,"id":"\#(String(format: "%032x", n))","rule":"\#(rule)"}"#
        )
    }

    func testWritesFindsAndFilters() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        try history.insert(
            (0..<10).map {
                row(
                    $0,
                    app: $0 < 5 ? "com.a" : "com.b",
                    rule: $0 % 2 == 0 ? "r-even" : "r-odd",
                    observed: 100 + Int64($0)
                )
            }
        )
        XCTAssertEqual(try history.count(), 10)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 3)).map(\.observed), [109, 108, 107], "newest first")
        XCTAssertEqual(try history.find(HistoryQuery(app: "com.b", limit: 100)).count, 5)
        XCTAssertEqual(try history.find(HistoryQuery(app: "com.a", rule: "r-even", limit: 100)).count, 3)
        XCTAssertEqual(try history.find(HistoryQuery(sinceObserved: 107, limit: 100)).count, 3)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 0)).count, 0)
    }

    func testALocaleFindsItsTagAndTheTagsThatExtendItOnly() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        let locales: [String?] = ["de", "de-DE", "de-CH", "dev", "en-US", nil, "zh-Hans-CN"]
        try history.insert(
            locales.enumerated().map { n, locale in
                var stored = row(n, observed: Int64(n))
                stored.json = #"{"v":1,"id":"\#(stored.id)","rule":"r"\#(locale.map { #","locale":"\#($0)""# } ?? "")}"#
                return stored
            }
        )
        func found(_ locale: String) throws -> [Int64] {
            try history.find(HistoryQuery(locale: locale, limit: 100)).map(\.observed).sorted()
        }
        XCTAssertEqual(try found("de"), [0, 1, 2], "de, de-DE and de-CH; not dev")
        XCTAssertEqual(try found("de-CH"), [2])
        XCTAssertEqual(try found("zh-Hans"), [6])
        XCTAssertEqual(try found("fr"), [])
    }

    func testTheSameViolationHandedOverAgainIsKeptOnce() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        try history.insert([row(1, observed: 1), row(1, observed: 1)])
        try history.insert([row(1, observed: 1)])
        XCTAssertEqual(try history.count(), 1)
    }

    /// A file whose sequence numbers (or the next one SQLite would give) lie outside 1 to 2^62 is
    /// refused at open by the writer, a reader and the inspection alike, in one line that says so:
    /// the binary search by time and the session buckets count on that range.
    func testAFileWhoseSequenceNumbersAreOutOfRangeIsRefusedByName() throws {
        let edits = [
            ("UPDATE violation_rows SET seq = 9223372036854775807 WHERE seq = 2", "from 1 to 9223372036854775807"),
            ("UPDATE violation_rows SET seq = -9223372036854775808 WHERE seq = 1", "from -9223372036854775808 to 2"),
            ("UPDATE sqlite_sequence SET seq = 9223372036854775806", "next row after 9223372036854775806"),
        ]
        for (index, (edit, words)) in edits.enumerated() {
            let path = directory.appendingPathComponent("range-\(index).sqlite").path
            do {
                let history = try ViolationHistory(path: path)
                try history.insert([row(1, observed: 10), row(2, observed: 20)])
                XCTAssertEqual(try history.find(HistoryQuery(sinceObserved: 15, limit: 10)).count, 1)
            }
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in try db.execute(sql: edit) }
            try queue.close()
            for open in [{ try ViolationHistory(path: path) }, { try ViolationHistory(path: path, readOnly: true) }] {
                XCTAssertThrowsError(try open()) { error in
                    XCTAssertTrue("\(error)".contains("outside 1 to 2^62") && "\(error)".contains(words), "\(error)")
                    XCTAssertFalse("\(error)".contains("\n"))
                }
            }
            guard case .unsupported(let what) = HistoryInspection.inspect(path: path) else {
                return XCTFail("\(HistoryInspection.inspect(path: path))")
            }
            XCTAssertTrue(what.contains(words), what)
        }
    }

    func testRetentionByAgeAndByRows() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        for commit in 0..<10 {
            try history.insert((commit * 10..<commit * 10 + 10).map { row($0, observed: Int64($0) * 1000) })
        }
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: 50_000, maxRows: nil), 50)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 1000)).map(\.observed).min(), 50_000)
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: nil, maxRows: 20), 30)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 1000)).map(\.observed).min(), 80_000, "the newest 20 stay")
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: nil, maxRows: 20), 0)
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: nil, maxRows: 15), 5, "rows, not commits")
        XCTAssertEqual(try history.count(), 15)
    }

    /// Retention deletes `pruneSlice` violations a call at most, oldest first: a large backlog is
    /// deleted over several short transactions, and new rows keep their numbers.
    func testRetentionDeletesInSlicesOldestFirst() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        let total = history.pruneSlice * 2 + 500
        try history.insert((0..<total).map { row($0, observed: Int64($0)) })
        XCTAssertEqual(try history.prune(now: Int64(total), maxAgeMs: 5, maxRows: nil), history.pruneSlice)
        XCTAssertEqual(
            try history.find(HistoryQuery(limit: 1_000_000)).map(\.observed).min(),
            Int64(history.pruneSlice),
            "the oldest went first"
        )
        XCTAssertEqual(try history.prune(now: Int64(total), maxAgeMs: 5, maxRows: nil), history.pruneSlice)
        XCTAssertEqual(try history.prune(now: Int64(total), maxAgeMs: 5, maxRows: nil), 500 - 5)
        XCTAssertEqual(try history.count(), 5)
        try history.insert([row(total + 1, observed: Int64(total) + 20)])
        XCTAssertEqual(try history.find(HistoryQuery(limit: 1)).first?.observed, Int64(total) + 20)
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
                try rule.withUTF8 { rule in
                    try app.withUTF8 { app in
                        try session.withUTF8 { session in
                            try severity.withUTF8 { severity in
                                try json.withUTF8 { json in
                                    try writer.insert(
                                        idHigh: v.idHigh,
                                        idLow: v.idLow,
                                        fingerprint: v.fingerprint,
                                        rule: UnsafeRawBufferPointer(rule),
                                        app: UnsafeRawBufferPointer(app),
                                        session: UnsafeRawBufferPointer(session),
                                        severity: UnsafeRawBufferPointer(severity),
                                        ts: v.ts,
                                        observed: v.observed,
                                        json: UnsafeRawBufferPointer(json)
                                    )
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    func testTheWriterStoresBytesAndFindReadsTheSameHexBack() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let history = try ViolationHistory(path: path)
        let violations = [
            // Leading zero nibbles and bytes: the hex keeps every digit.
            Published(
                idHigh: 0x0000_00ab_cdef_0001,
                idLow: 0x0f00_0000_0000_0000,
                fingerprint: 0x0000_0000_0000_0001,
                rule: "alert-frequency",
                app: "com.a",
                session: "S1",
                severity: "warning",
                ts: 1000,
                observed: 10
            ),
            Published(
                idHigh: .max,
                idLow: .max,
                fingerprint: .max,
                rule: "modal-depth",
                app: "com.b",
                session: "",
                severity: "error",
                ts: 2000,
                observed: 11
            ),
            Published(
                idHigh: 0x8000_0000_0000_0000,
                idLow: 1,
                fingerprint: 0x1234_5678_9abc_def0,
                rule: "alert-pronoun",
                app: "com.a",
                session: "Séance “1”",
                severity: "info",
                ts: -5,
                observed: 12
            ),
        ]
        XCTAssertEqual(try write(history, violations), 3)
        let found = try history.find(HistoryQuery(limit: 10))
        XCTAssertEqual(found.map(\.id), violations.reversed().map(\.id), "newest first, the published hex")
        XCTAssertEqual(found.map(\.fingerprint), violations.reversed().map { $0.hex($0.fingerprint) })
        XCTAssertEqual(found.map(\.json), violations.reversed().map(\.json), "the JSON exactly as published")
        XCTAssertEqual(
            found.map(\.session),
            ["Séance “1”", "", "S1"],
            "an empty session is the empty string, not NULL"
        )
        XCTAssertEqual(found.map(\.ts), [-5, 2000, 1000])
        XCTAssertEqual(found.map(\.severity), ["info", "error", "warning"])
        XCTAssertEqual(try history.find(HistoryQuery(session: "S1", limit: 10)).map(\.id), [violations[0].id])
        XCTAssertEqual(try history.find(HistoryQuery(session: "", limit: 10)).map(\.id), [violations[1].id])

        // On disk: plain rows (docs/spec/history.md), the published hex, the generated columns from the JSON.
        let raw = try DatabaseQueue(
            path: path,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }()
        )
        let rows = try raw.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT seq, id, fingerprint, session, typeof(id), typeof(fingerprint) FROM violations ORDER BY seq"
            )
        }
        XCTAssertEqual(rows.map { $0[0] as Int64 }, [1, 2, 3])
        XCTAssertEqual(rows.map { $0[1] as String }, violations.map(\.id))
        XCTAssertEqual(rows.map { $0[2] as String }, violations.map { $0.hex($0.fingerprint) })
        XCTAssertEqual(rows.map { "\($0[4] as String) \($0[5] as String)" }, ["text text", "text text", "text text"])
        XCTAssertEqual(try history.schemaVersion(), HistorySchema.version)
    }

    func testQueriesFindEveryRowAcrossCommitsAndReopenings() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        var history = try ViolationHistory(path: path)
        var written: [Published] = []
        let apps = ["com.a", "com.b", "com.c"]
        let rules = ["r1", "r2", "r3", "r4", "r5"]
        // Commits of one to three violations, the writer opened again after each round.
        var n = 0
        func check(_ when: String) throws {
            for app in apps {
                let expected = written.filter { $0.app == app }.reversed().map(\.id)
                XCTAssertEqual(
                    try history.find(HistoryQuery(app: app, limit: 10_000)).map(\.id),
                    expected,
                    "app \(app), \(when)"
                )
                var scanned = 0
                try history.scan(app: app) { violation, _ in
                    XCTAssertEqual(violation.app, app)
                    scanned += 1
                }
                XCTAssertEqual(scanned, expected.count, "scan of \(app), \(when)")
            }
            for rule in rules {
                let expected = written.filter { $0.rule == rule }.reversed().map(\.id)
                XCTAssertEqual(
                    try history.find(HistoryQuery(rule: rule, limit: 10_000)).map(\.id),
                    expected,
                    "rule \(rule), \(when)"
                )
            }
            for session in ["S0", "S7", "S12"] {
                let expected = written.filter { $0.session == session }.reversed().map(\.id)
                XCTAssertEqual(
                    try history.find(HistoryQuery(session: session, limit: 10_000)).map(\.id),
                    expected,
                    "session \(session), \(when)"
                )
            }
        }
        for round in 0..<3 {
            for _ in 0..<130 {
                let commit = (0..<(1 + n % 3)).map { _ -> Published in
                    n += 1
                    return Published(
                        idHigh: 5,
                        idLow: UInt64(n),
                        fingerprint: UInt64(n),
                        rule: rules[n % 5],
                        app: apps[n % 3],
                        session: "S\(n % 13)",
                        severity: "info",
                        ts: Int64(n),
                        observed: Int64(n)
                    )
                }
                XCTAssertEqual(try write(history, commit), commit.count)
                written += commit
            }
            try check("round \(round)")
            history = try ViolationHistory(path: path)
            try check("round \(round), reopened")
        }
        let raw = try ViolationHistory(path: path, readOnly: true)
        XCTAssertEqual(try raw.count(), written.count)
        XCTAssertEqual(
            try raw.find(HistoryQuery(app: "com.b", limit: 10_000)).count,
            written.filter { $0.app == "com.b" }.count,
            "a reader finds the tail too"
        )
    }

    func testTheWriterKeepsAReplayedIdOnce() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        let v = Published(
            idHigh: 7,
            idLow: 9,
            fingerprint: 3,
            rule: "r",
            app: "a",
            session: "s",
            severity: "info",
            ts: 1,
            observed: 1
        )
        XCTAssertEqual(try write(history, [v, v]), 2, "both handed over")
        XCTAssertEqual(try write(history, [v]), 1)
        XCTAssertEqual(try history.count(), 1)
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
            Published(
                idHigh: 5,
                idLow: low,
                fingerprint: low,
                rule: "r",
                app: "a",
                session: session,
                severity: "info",
                ts: Int64(low),
                observed: observed
            )
        }
        XCTAssertEqual(
            try write(history, [violation(1, session: "s1", observed: 1), violation(2, session: "s2", observed: 2)]),
            2
        )
        let mixed = [
            violation(3, session: "s2", observed: 3), violation(1, session: "s1", observed: 1),
            violation(4, session: "s1", observed: 5), violation(2, session: "s2", observed: 2),
            violation(3, session: "s2", observed: 3),
        ]
        XCTAssertEqual(try write(history, mixed), 5, "all five handed over")
        XCTAssertEqual(try history.count(), 4, "two replays and a repeat left out")
        XCTAssertEqual(try history.find(HistoryQuery(limit: 10)).map(\.observed).sorted(), [1, 2, 3, 5])
        XCTAssertEqual(try history.find(HistoryQuery(session: "s1", limit: 10)).map(\.observed).sorted(), [1, 5])
        XCTAssertEqual(try history.find(HistoryQuery(session: "s2", limit: 10)).map(\.observed).sorted(), [2, 3])
        XCTAssertEqual(try write(history, [violation(4, session: "s1", observed: 5)]), 1)
        XCTAssertEqual(try history.count(), 4, "the one stored by the mixed commit counts as stored")
    }

    /// Commits of 1 to 40 violations, some of them replays of violations stored before, some
    /// failing on a lock another connection holds, the writer opened again now and then: the file
    /// holds exactly the violations the model stored, each once (checked every 25 commits, and by
    /// session at the end).
    func testRandomCommitsReplaysFailuresAndReopeningsLoseNothing() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        var history = try ViolationHistory(path: path, busyTimeout: 0.01)
        var generator = SystemRandomNumberGenerator()
        var stored: [UInt64: Published] = [:]
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
                    commit.append(
                        Published(
                            idHigh: 9,
                            idLow: next,
                            fingerprint: next,
                            rule: "r\(next % 3)",
                            app: "a\(next % 2)",
                            session: "S\(next % 7)",
                            severity: "info",
                            ts: Int64(next),
                            observed: Int64(next)
                        )
                    )
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
            XCTAssertEqual(try history.count(), stored.count, "step \(step): each violation once")
            if step % 25 == 24 {
                XCTAssertEqual(
                    Set(try history.find(HistoryQuery(limit: 100_000)).map(\.id)),
                    Set(stored.values.map(\.id)),
                    "step \(step)"
                )
            }
        }
        for session in (0..<7).map({ "S\($0)" }) {
            XCTAssertEqual(
                Set(try history.find(HistoryQuery(session: session, limit: 100_000)).map(\.id)),
                Set(stored.values.filter { $0.session == session }.map(\.id)),
                "session \(session)"
            )
        }
    }

    func testAWriteThatThrowsStoresNothing() throws {
        struct Stop: Error {}
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        let v = Published(
            idHigh: 1,
            idLow: 1,
            fingerprint: 1,
            rule: "r",
            app: "a",
            session: "s",
            severity: "info",
            ts: 1,
            observed: 1
        )
        XCTAssertThrowsError(
            try history.write { writer in
                var (r, a, s, sev, j) = (v.rule, v.app, v.session, v.severity, v.json)
                try r.withUTF8 { r in
                    try a.withUTF8 { a in
                        try s.withUTF8 { s in
                            try sev.withUTF8 { sev in
                                try j.withUTF8 { j in
                                    try writer.insert(
                                        idHigh: 1,
                                        idLow: 1,
                                        fingerprint: 1,
                                        rule: UnsafeRawBufferPointer(r),
                                        app: UnsafeRawBufferPointer(a),
                                        session: UnsafeRawBufferPointer(s),
                                        severity: UnsafeRawBufferPointer(sev),
                                        ts: 1,
                                        observed: 1,
                                        json: UnsafeRawBufferPointer(j)
                                    )
                                }
                            }
                        }
                    }
                }
                throw Stop()
            }
        ) { XCTAssertTrue($0 is Stop) }
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

    /// 0.1.0's file (GRDB's migrations v1 to v4, ids as BLOBs: `Tests/Fixtures/history/0.1.0.sql`)
    /// is converted when a writer opens it, a slice a transaction, newest first; every query reads
    /// the same rows, in the same order, after; a conversion stopped between slices goes on at the
    /// next open; a reader refuses the file until a writer converted it.
    func testA010FileIsConvertedInSlicesAndReadsTheSame() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let rows = (0..<2_500).map { n in
            row(n, app: "com.\(n % 3)", rule: "r\(n % 5)", observed: 1_000 + Int64(n / 10))
        }
        try HistoryFixtures.makeReleased(at: path, rows: rows)
        // A gap, as retention leaves: the oldest rows deleted.
        let old = try DatabaseQueue(path: path)
        try old.write { db in try db.execute(sql: "DELETE FROM violations WHERE seq <= 100") }
        try old.close()
        XCTAssertEqual(HistoryInspection.inspect(path: path), .sound)
        XCTAssertThrowsError(try ViolationHistory(path: path, readOnly: true)) { error in
            XCTAssertTrue("\(error)".contains("0.1.0's"), "\(error)")
        }
        let kept = Array(rows[100...])
        let queries = [
            HistoryQuery(limit: 10_000), HistoryQuery(limit: 7), HistoryQuery(app: "com.1", limit: 10_000),
            HistoryQuery(rule: "r3", limit: 50), HistoryQuery(session: "S2", limit: 10_000),
            HistoryQuery(sinceObserved: 1_200, limit: 10_000),
            HistoryQuery(app: "com.2", session: "S1", limit: 30),
        ]
        func expected(_ query: HistoryQuery) -> [StoredViolation] {
            let found = kept.reversed().filter { v in
                (query.app.map { $0 == v.app } ?? true) && (query.rule.map { $0 == v.rule } ?? true)
                    && (query.session.map { $0 == v.session } ?? true)
                    && (query.sinceObserved.map { v.observed >= $0 } ?? true)
            }
            return Array(found.prefix(query.limit))
        }

        // Stopped after two slices: the next open goes on.
        struct Stop: Error {}
        var seen: [ViolationHistory.ConversionProgress] = []
        XCTAssertThrowsError(
            try ViolationHistory(
                path: path,
                conversionSlice: 1_000,
                progress: {
                    seen.append($0)
                    if seen.count == 2 { throw Stop() }
                }
            )
        )
        XCTAssertEqual(seen.map(\.remaining), [1_400, 400])
        let midway = try ViolationHistory(path: path, readOnly: true)
        XCTAssertEqual(
            try midway.find(HistoryQuery(limit: 1)).first?.id,
            rows.last?.id,
            "the newest are converted first"
        )
        var rest: [ViolationHistory.ConversionProgress] = []
        let history = try ViolationHistory(path: path, conversionSlice: 1_000, progress: { rest.append($0) })
        XCTAssertEqual(rest, [ViolationHistory.ConversionProgress(converted: 400, remaining: 0)])
        XCTAssertEqual(try history.count(), 2_400)
        for query in queries {
            XCTAssertEqual(try history.find(query), expected(query), "\(query) after the conversion")
        }
        let raw = try DatabaseQueue(
            path: path,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }()
        )
        let tables = try raw.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        XCTAssertEqual(tables, ["sqlite_sequence", "violation_rows"], "the old rows and GRDB's migrations are gone")
        XCTAssertEqual(try history.schemaVersion(), HistorySchema.version)
        XCTAssertEqual(
            try raw.read { db in try Int64.fetchOne(db, sql: "SELECT MIN(seq) FROM violations") },
            101,
            "sequence numbers kept"
        )
        // New violations follow the converted ones, and a replay of a converted one is kept once.
        try history.insert([rows[2_499], row(9_000, observed: 5_000)])
        XCTAssertEqual(try history.count(), 2_401)
        XCTAssertEqual(
            try history.find(HistoryQuery(limit: 2)).map(\.id),
            [String(format: "%032x", 9_000), rows[2_499].id]
        )
        XCTAssertGreaterThan(
            try raw.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM violations") } ?? 0,
            2_500,
            "numbered after the converted ones"
        )
    }

    /// Any version but the current one and 0.1.0's is refused in one line that names it, and the
    /// file is left as it is.
    func testOtherVersionsAreRefusedByName() throws {
        let cases: [(String, String)] = [
            (
                "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); INSERT INTO grdb_migrations VALUES ('v1'), ('v2'), ('v3'), ('v4'), ('v5'), ('v6'); CREATE TABLE segments (first_seq INTEGER PRIMARY KEY);",
                "the schema migrations v1, v2, v3, v4, v5, v6 (an unreleased build's segments)"
            ),
            (
                "CREATE TABLE violations (seq INTEGER PRIMARY KEY); PRAGMA user_version = 9;",
                "is schema version 9, newer than this release's"
            ),
        ]
        for (index, (sql, words)) in cases.enumerated() {
            let path = directory.appendingPathComponent("other-\(index).sqlite").path
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
            try queue.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try ViolationHistory(path: path)) { error in
                XCTAssertTrue("\(error)".contains(words), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
            guard case .unsupported(let what) = HistoryInspection.inspect(path: path) else {
                return XCTFail("\(HistoryInspection.inspect(path: path))")
            }
            XCTAssertTrue(what.contains(words), what)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "left as it is")
        }
    }

    /// A new file is made at the current version in one step: no migration history, no table made and dropped.
    func testANewFileIsMadeAtTheCurrentVersion() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let history = try ViolationHistory(path: path)
        XCTAssertEqual(try history.schemaVersion(), HistorySchema.version)
        let raw = try DatabaseQueue(
            path: path,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }()
        )
        let columns = try raw.read { db in
            try Row.fetchAll(db, sql: "PRAGMA table_xinfo(violations)").map { $0["name"] as String }
        }
        XCTAssertEqual(columns, HistorySchema.columns)
        let tables = try raw.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        XCTAssertEqual(tables, ["sqlite_sequence", "violation_rows"])
    }

    func testEveryQueryShapeUsesAnIndex() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let history = try ViolationHistory(path: path)
        try history.insert((0..<10).map { row($0, observed: Int64($0)) })
        let raw = try DatabaseQueue(
            path: path,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }()
        )
        // The statements of `HistorySQL` the CLI, the control socket and the retention run, and the
        // key each must be served by: without it, the query reads the whole table.
        let sql = HistorySQL.sqlite
        let shapes: [(HistorySQL.Statement, String)] = [
            (sql.page(HistoryQuery(limit: 100), after: nil), "SCAN violation_rows"),
            (
                sql.page(HistoryQuery(app: "a", limit: 100), after: HistoryPage.Cursor(observed: 0, rowid: 5)),
                "USING INDEX violations_app"
            ),
            (sql.page(HistoryQuery(rule: "r", limit: 100), after: nil), "USING INDEX violations_rule"),
            (
                sql.page(HistoryQuery(session: "s", limit: 100), after: nil, sessionBucket: 0),
                "USING INDEX violations_session"
            ),
            (
                sql.page(HistoryQuery(app: "a", session: "s", limit: 100), after: nil, sessionBucket: 0),
                "USING INDEX violations_session"
            ),
            (
                sql.page(HistoryQuery(sinceObserved: 5, limit: 100), after: nil, seqFloor: 3),
                "USING INTEGER PRIMARY KEY"
            ),
            // A language alone reads the rows newest first until the page is full.
            (sql.page(HistoryQuery(locale: "de", limit: 100), after: nil), "SCAN violation_rows"),
            (sql.page(HistoryQuery(app: "a", locale: "de", limit: 100), after: nil), "USING INDEX violations_app"),
            (sql.scan(app: "a", sinceTs: nil, untilTs: nil), "USING INDEX violations_app"),
            (sql.deleteObserved(before: 5, slice: 100), "USING COVERING INDEX violations_key"),
            (sql.deleteSequences(through: 5, slice: 100), "USING INTEGER PRIMARY KEY"),
        ]
        for (statement, index) in shapes {
            let plan = try raw.read { db in
                try Row.fetchAll(
                    db,
                    sql: "EXPLAIN QUERY PLAN " + statement.sql,
                    arguments: ViolationHistory.arguments(statement)
                ).map { $0["detail"] as String }
            }
            XCTAssertTrue(plan.contains { $0.contains(index) }, "\(statement.sql): \(plan)")
            XCTAssertFalse(plan.contains { $0.contains("TEMP B-TREE") }, "\(statement.sql) sorts: \(plan)")
        }
    }
}
