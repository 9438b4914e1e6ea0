import Foundation
import GRDB
import HistoryStore
import ModalwatchTesting
import XCTest

/// The start-up check of a history file (docs/RELIABILITY.md, "A damaged history"), and paging.
final class HistoryInspectionTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "mw-inspect").url
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func rows(_ range: Range<Int>, pad: Int = 600) -> [StoredViolation] {
        range.map { n in
            StoredViolation(
                id: String(format: "%032x", n),
                fingerprint: String(format: "%016x", n),
                rule: "alert-frequency",
                app: "com.a",
                session: "S",
                severity: "warning",
                ts: 1000 + Int64(n),
                observed: Int64(n / 3),
                json: #"{"v":1,"id":"\#(String(format: "%032x", n))","pad":"\#(String(repeating: "x", count: pad))"}"#
            )
        }
    }

    func testAnAbsentOrEmptyFileIsAbsentAndOursIsSound() throws {
        XCTAssertEqual(HistoryInspection.inspect(path: path("none.sqlite")), .absent)
        XCTAssertTrue(FileManager.default.createFile(atPath: path("empty.sqlite"), contents: Data()))
        XCTAssertEqual(HistoryInspection.inspect(path: path("empty.sqlite")), .absent)
        let history = try ViolationHistory(path: path("h.sqlite"))
        try history.insert(rows(0..<50))
        XCTAssertEqual(HistoryInspection.inspect(path: path("h.sqlite")), .sound)
    }

    func testGarbageAndCorruptedPagesAreDamagedInOneLine() throws {
        XCTAssertTrue(
            FileManager.default.createFile(atPath: path("text.sqlite"), contents: Data(repeating: 0x41, count: 8192))
        )
        guard case .damaged(let why) = HistoryInspection.inspect(path: path("text.sqlite")) else {
            return XCTFail("a text file is damaged")
        }
        XCTAssertFalse(why.contains("\n"), why)

        let file = path("torn.sqlite")
        do {
            let history = try ViolationHistory(path: file)
            try history.insert(rows(0..<400))
        }
        let queue = try DatabaseQueue(path: file)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
        var data = try Data(contentsOf: URL(fileURLWithPath: file))
        for offset in stride(from: 2 * 4096, to: min(data.count, 6 * 4096), by: 7) { data[offset] = 0xA5 }
        try data.write(to: URL(fileURLWithPath: file))
        guard case .damaged(let reason) = HistoryInspection.inspect(path: file) else {
            return XCTFail("page-corrupted pages are damaged")
        }
        XCTAssertFalse(reason.contains("\n"), reason)
    }

    func testAForeignSchemaIsNamedWithoutSQL() throws {
        let queue = try DatabaseQueue(path: path("foreign.sqlite"))
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE violations (x INTEGER); CREATE TABLE notes (body TEXT)")
        }
        try queue.close()
        guard case .foreign(let what) = HistoryInspection.inspect(path: path("foreign.sqlite")) else {
            return XCTFail("a foreign schema is foreign")
        }
        XCTAssertTrue(what.contains("notes"), what)
        XCTAssertFalse(what.contains("CREATE"), what)
    }

    func testPagesAreBoundedByBytesAndTheCursorWalksEveryRowOnce() throws {
        let history = try ViolationHistory(path: path("paged.sqlite"))
        try history.insert(rows(0..<500))
        var seen: [String] = []
        var cursor: HistoryPage.Cursor?
        var pages = 0
        repeat {
            let page = try history.findPage(HistoryQuery(limit: 10_000), after: cursor, maxBytes: 64 << 10)
            XCTAssertLessThanOrEqual(page.rows.reduce(0) { $0 + $1.json.utf8.count }, 64 << 10)
            seen += page.rows.map(\.id)
            cursor = page.next
            pages += 1
        } while cursor != nil && pages < 100
        XCTAssertEqual(seen.count, 500)
        XCTAssertEqual(Set(seen).count, 500)
        XCTAssertEqual(
            seen,
            try history.find(HistoryQuery(limit: 500)).map(\.id),
            "the same order as one unpaged query"
        )
        XCTAssertGreaterThan(pages, 5)
        XCTAssertEqual(HistoryPage.Cursor(text: "12.34"), HistoryPage.Cursor(observed: 12, rowid: 34))
        XCTAssertNil(HistoryPage.Cursor(text: "yesterday"))
        XCTAssertNil(HistoryPage.Cursor(text: "0.-9223372036854775808"), "a rowid below 1")
        XCTAssertNil(HistoryPage.Cursor(text: "0.0"))
        XCTAssertNil(HistoryPage.Cursor(text: "-1.5"), "an observed time before 1970")
        XCTAssertNil(HistoryPage.Cursor(text: "0.9223372036854775807"), "a rowid past maxSequence")
        XCTAssertNil(HistoryPage.Cursor(text: "99999999999999999999.1"))
        XCTAssertNotNil(HistoryPage.Cursor(text: "0.\(ViolationHistory.maxSequence)"))
    }
}
