import Foundation
import HistoryStore
import ModalwatchTesting
import XCTest

/// `scan`, the cursor `modalwatch report` reads a history with, on a real SQLite file.
final class ViolationHistoryScanTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "mw-scan").url
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func row(_ n: Int, app: String) -> StoredViolation {
        let id = String(format: "%032x", n)
        return StoredViolation(
            id: id,
            fingerprint: String(format: "%016x", n),
            rule: "r\(n % 2)",
            app: app,
            session: "S\(n % 3)",
            severity: n % 3 == 0 ? "error" : "info",
            ts: 1000 + Int64(n) * 10,
            observed: 5000 + Int64(n),
            json: #"{"v":1,"id":"\#(id)","rule":"r\#(n % 2)","subject":"a\#(n)","message":"m \"\#(n)\""}"#
        )
    }

    func testScanGivesEveryRowWithItsJSONAndFiltersByAppAndEventTime() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let writer = try ViolationHistory(path: path)
        try writer.insert((0..<20).map { row($0, app: $0 < 12 ? "com.a" : "com.b") })
        let reader = try ViolationHistory(path: path, readOnly: true)

        var all: [Int64: (ScannedViolation, String)] = [:]
        try reader.scan { row, json in all[row.ts] = (row, String(decoding: json, as: UTF8.self)) }
        XCTAssertEqual(all.count, 20)
        let third = try XCTUnwrap(all[1030])
        XCTAssertEqual(third.0.rule, "r1")
        XCTAssertEqual(third.0.app, "com.a")
        XCTAssertEqual(third.0.session, "S0")
        XCTAssertEqual(third.0.severity, "error")
        XCTAssertEqual(third.1, try writer.find(HistoryQuery(limit: 100)).first { $0.ts == 1030 }?.json)

        var times: [Int64] = []
        try reader.scan(app: "com.a", sinceTs: 1050, untilTs: 1100) { row, _ in times.append(row.ts) }
        XCTAssertEqual(times.sorted(), [1050, 1060, 1070, 1080, 1090])
        var others = 0
        try reader.scan(app: "com.b") { row, _ in others += row.app == "com.b" ? 1 : 100 }
        XCTAssertEqual(others, 8)
    }
}
