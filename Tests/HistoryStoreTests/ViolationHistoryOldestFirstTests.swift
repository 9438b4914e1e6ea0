import Foundation
import ModalwatchTesting
import XCTest

@testable import HistoryStore

/// `ViolationHistory.oldestFirst`: the whole history in storing order, page by page (what
/// `modalwatch history import` reads), and the `seq` each read row carries.
final class ViolationHistoryOldestFirstTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "mw-oldest").url
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func row(_ n: Int) -> StoredViolation {
        StoredViolation(
            id: String(format: "%032x", n),
            fingerprint: String(format: "%016x", n),
            rule: "alert-frequency",
            app: "com.a",
            session: "S\(n % 3)",
            severity: "warning",
            ts: 1000 + Int64(n),
            observed: 100 + Int64(n),
            json: #"{"v":1,"id":"\#(String(format: "%032x", n))"}"#
        )
    }

    func testPagesGiveEveryRowOnceInStoringOrder() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        try history.insert((0..<25).map(row))
        // The retention deleted the oldest three (seq 1 to 3): the pages start past them.
        _ = try history.prune(now: 103, maxAgeMs: 0, maxRows: nil)
        var read: [StoredViolation] = []
        var after: Int64 = 0
        while true {
            let page = try history.oldestFirst(after: after, limit: 7)
            guard let last = page.last else { break }
            XCTAssertLessThanOrEqual(page.count, 7)
            read += page
            after = last.seq
        }
        XCTAssertEqual(read, (3..<25).map(row), "every row left, oldest first, once")
        XCTAssertEqual(read.map(\.seq), Array(4...25), "seq as stored")
        XCTAssertEqual(try history.oldestFirst(after: 25, limit: 7), [])
    }

    func testSeqIsReadButNotPartOfEquality() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        try history.insert([row(1), row(2)])
        let newest = try XCTUnwrap(history.find(HistoryQuery(limit: 1)).first)
        XCTAssertEqual(newest.seq, 2)
        XCTAssertEqual(newest, row(2), "the same violation, whatever seq a store gave it")
    }
}
