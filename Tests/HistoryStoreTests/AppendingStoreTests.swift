import Foundation
import GRDB
import ModalwatchTesting
import XCTest

@testable import HistoryStore

/// The store grows at its end: WAL pages per stored violation, a session found through its index,
/// the order and retention by arrival, on real SQLite files.
final class AppendingStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "mw-append").url
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A violation shaped like the daemon's: ~400 bytes of JSON, one of 2,000 sessions
    /// (random-looking ids), 12 rules, 3 apps; ts and observed follow the clock.
    private func violation(_ n: Int) -> StoredViolation {
        let session = String(format: "%08X-%04X", (n % 2000) &* 2_654_435_761 & 0xffff_ffff, n % 2000)
        let id = String(format: "%016llx%016llx", UInt64(1_700_000_000_000 + n), UInt64(n) &* 0x9e37_79b9_7f4a_7c15)
        let rule = "rule-\(n % 12)"
        let app = "com.example.app\(n % 3)"
        let json =
            #"{"v":1,"id":"\#(id)","rule":"\#(rule)","app":"\#(app)","session":"\#(session)","severity":"warning","ts":\#(1_700_000_000_000 + n),"message":"\#(String(repeating: "x", count: 250))"}"#
        return StoredViolation(
            id: id,
            fingerprint: String(format: "%016llx", UInt64(n % 5000) &* 0x1234_5678_9abc_def1),
            rule: rule,
            app: app,
            session: session,
            severity: "warning",
            ts: 1_700_000_000_000 + Int64(n),
            observed: 1_700_000_000_000 + Int64(n),
            json: json
        )
    }

    /// Writes `rows` in commits of `size`.
    private func insert(_ rows: [StoredViolation], commitsOf size: Int, into history: ViolationHistory) throws {
        for start in stride(from: 0, to: rows.count, by: size) {
            try history.insert(Array(rows[start..<min(start + size, rows.count)]))
        }
    }

    /// At commits of 100, a commit writes the last pages of the table and of each index (the
    /// session index's newest bucket among them): under two WAL pages a violation; at commits of
    /// 1,000 under half a page.
    func testACommitOfAHundredWritesUnderTwoWALPagesPerViolation() throws {
        let path = directory.appendingPathComponent(ViolationHistory.fileName).path
        let history = try ViolationHistory(path: path, checkpointsElsewhere: true)
        let counter = try WALFrameCounter(path: path)
        let group = 100
        var frames: [Int] = []
        for commit in 0..<200 {
            try history.insert((commit * group..<(commit + 1) * group).map(violation))
            frames.append(try counter.framesSinceLastCall())
        }
        let steady = Double(frames.suffix(150).reduce(0, +)) / Double(150 * group)
        XCTAssertLessThan(steady, 2, "WAL pages per violation at commits of \(group): \(frames)")
        XCTAssertEqual(try history.count(), 200 * group)
    }

    func testACommitOfAThousandWritesUnderHalfAWALPagePerViolation() throws {
        let path = directory.appendingPathComponent(ViolationHistory.fileName).path
        let history = try ViolationHistory(path: path, checkpointsElsewhere: true)
        let counter = try WALFrameCounter(path: path)
        let group = 1000
        var frames: [Int] = []
        for commit in 0..<30 {
            try history.insert((commit * group..<(commit + 1) * group).map(violation))
            frames.append(try counter.framesSinceLastCall())
        }
        // Past the first commits (the indexes' first pages), steady state.
        let steady = Double(frames.suffix(20).reduce(0, +)) / Double(20 * group)
        XCTAssertLessThan(steady, 0.5, "WAL pages per violation at commits of \(group): \(frames)")
        XCTAssertEqual(try history.count(), 30 * group)
    }

    func testANewFileHasFourKiBPagesAndAnOldOneKeepsItsOwn() throws {
        let path = directory.appendingPathComponent(ViolationHistory.fileName).path
        _ = try ViolationHistory(path: path)
        XCTAssertEqual(ViolationHistory.pageSize, 4096)
        XCTAssertEqual(try WALFrameCounter(path: path).pageSize(), 4096)

    }

    func testRetentionByAgeTakesWhatIsOlderThanTheCut() throws {
        let path = directory.appendingPathComponent(ViolationHistory.fileName).path
        let history = try ViolationHistory(path: path)
        // observed 0, 1000, … 9000, then one found after the wall clock stepped back (500).
        var rows = (0..<10).map { n -> StoredViolation in
            var v = violation(n)
            v.observed = Int64(n) * 1000
            return v
        }
        var late = violation(10)
        late.observed = 500
        rows.append(late)
        try insert(rows, commitsOf: 1, into: history)
        // Older than 4000: the first four and the late one, through the `observed` index.
        XCTAssertEqual(try history.prune(now: 10_000, maxAgeMs: 6_000, maxRows: nil), 5)
        XCTAssertEqual(
            try history.find(HistoryQuery(limit: 100)).map(\.observed),
            [9000, 8000, 7000, 6000, 5000, 4000]
        )
        // None young enough: every row goes.
        XCTAssertEqual(try history.prune(now: 1_000_000, maxAgeMs: 1_000, maxRows: nil), 6)
        XCTAssertEqual(try history.count(), 0)
        XCTAssertEqual(
            try history.prune(now: 1_000_000, maxAgeMs: 1_000, maxRows: nil),
            0,
            "an empty store prunes nothing"
        )
    }

    func testASessionIsFoundThroughItsIndexNewestFirst() throws {
        let path = directory.appendingPathComponent(ViolationHistory.fileName).path
        let history = try ViolationHistory(path: path)
        // 10,000 rows in commits of 100.
        let rows = (0..<10_000).map(violation)
        try insert(rows, commitsOf: 100, into: history)
        let session = rows[7].session
        let expected = rows.filter { $0.session == session }.reversed().map(\.id)
        XCTAssertEqual(expected.count, 5)
        XCTAssertEqual(try history.find(HistoryQuery(session: session, limit: 100)).map(\.id), Array(expected))
        XCTAssertEqual(try history.find(HistoryQuery(session: session, limit: 2)).map(\.id), Array(expected.prefix(2)))
        XCTAssertEqual(
            try history.find(HistoryQuery(app: rows[7].app, session: session, limit: 100)).map(\.id),
            rows.filter { $0.session == session && $0.app == rows[7].app }.reversed().map(\.id)
        )
        XCTAssertEqual(try history.find(HistoryQuery(app: "com.other", session: session, limit: 100)), [])
        XCTAssertEqual(
            try history.find(HistoryQuery(rule: rows[7].rule, session: session, limit: 100)).map(\.id),
            rows.filter { $0.session == session && $0.rule == rows[7].rule }.reversed().map(\.id)
        )
        XCTAssertEqual(try history.find(HistoryQuery(session: "no such session", limit: 100)), [])
        // Retention from the oldest end (a slice a call) leaves the newest, still found.
        var pruned = 0
        while case let deleted = try history.prune(now: 0, maxAgeMs: nil, maxRows: 5000), deleted > 0 {
            pruned += deleted
        }
        XCTAssertEqual(pruned, 5000)
        XCTAssertEqual(
            try history.find(HistoryQuery(session: session, limit: 100)).map(\.id),
            rows.suffix(5000).filter { $0.session == session }.reversed().map(\.id)
        )
    }

    func testRuleAndAppQueriesReadNewestFirstInArrivalOrder() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent(ViolationHistory.fileName).path)
        var rows = (0..<500).map(violation)
        // A wall clock that stepped back: arrival order still decides newest first.
        rows[499].observed = 0
        try insert(rows, commitsOf: 50, into: history)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 3)).map(\.id), rows.suffix(3).reversed().map(\.id))
        XCTAssertEqual(
            try history.find(HistoryQuery(rule: "rule-5", limit: 4)).map(\.id),
            rows.filter { $0.rule == "rule-5" }.suffix(4).reversed().map(\.id)
        )
        XCTAssertEqual(
            try history.find(HistoryQuery(app: "com.example.app1", rule: "rule-4", limit: 1000)).map(\.id),
            rows.filter { $0.app == "com.example.app1" && $0.rule == "rule-4" }.reversed().map(\.id)
        )
        XCTAssertEqual(try history.find(HistoryQuery(sinceObserved: rows[490].observed, limit: 1000)).count, 9)
    }

    /// `since` is a sequence bound found by binary search: the same rows as filtering every row by
    /// `observed`, with every other filter and across pages.
    func testSinceGivesWhatAFilterGives() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent(ViolationHistory.fileName).path)
        let rows = (0..<9000).map(violation)
        try insert(rows, commitsOf: 100, into: history)
        var pruned = 0
        while case let deleted = try history.prune(now: 0, maxAgeMs: nil, maxRows: 8000), deleted > 0 {
            pruned += deleted
        }
        XCTAssertEqual(pruned, 1000, "a gap at the start")
        let kept = Array(rows.suffix(8000))
        for since in [
            Int64.min, kept[0].observed - 1, kept[0].observed, kept[4321].observed, kept[7999].observed,
            kept[7999].observed + 1,
        ] {
            let young = kept.filter { $0.observed >= since }
            XCTAssertEqual(
                try history.find(HistoryQuery(sinceObserved: since, limit: 10_000)).map(\.id),
                young.reversed().map(\.id)
            )
            let session = kept[7000].session
            XCTAssertEqual(
                try history.find(HistoryQuery(session: session, sinceObserved: since, limit: 10_000)).map(\.id),
                young.filter { $0.session == session }.reversed().map(\.id)
            )
            XCTAssertEqual(
                try history.find(HistoryQuery(rule: "rule-3", sinceObserved: since, limit: 10_000)).map(\.id),
                young.filter { $0.rule == "rule-3" }.reversed().map(\.id)
            )
            // Paged: the pages together are the same rows.
            var paged: [String] = []
            var cursor: HistoryPage.Cursor?
            repeat {
                let page = try history.findPage(
                    HistoryQuery(sinceObserved: since, limit: 10_000),
                    after: cursor,
                    maxBytes: 64 << 10
                )
                paged += page.rows.map(\.id)
                cursor = page.next
            } while cursor != nil
            XCTAssertEqual(paged, young.reversed().map(\.id))
        }
    }
}
