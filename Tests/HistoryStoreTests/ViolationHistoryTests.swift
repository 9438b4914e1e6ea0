import Foundation
import HistoryStore
import XCTest

/// The history store on a real SQLite file: write, find, retention, read-only readers.
final class ViolationHistoryTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mw-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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

    func testTheSameViolationIdIsKeptOnce() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        try history.insert([row(1, observed: 1), row(1, observed: 2)])
        try history.insert([row(1, observed: 3)])
        XCTAssertEqual(try history.count(), 1)
    }

    func testRetentionByAgeAndByRows() throws {
        let history = try ViolationHistory(path: directory.appendingPathComponent("h.sqlite").path)
        try history.insert((0..<100).map { row($0, observed: Int64($0) * 1000) })
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: 50_000, maxRows: nil), 50)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 1000)).map(\.observed).min(), 50_000)
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: nil, maxRows: 20), 30)
        XCTAssertEqual(try history.find(HistoryQuery(limit: 1000)).map(\.observed).min(), 80_000, "the newest 20 stay")
        XCTAssertEqual(try history.prune(now: 100_000, maxAgeMs: nil, maxRows: 20), 0)
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
}
