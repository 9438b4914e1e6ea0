import Foundation
import HistoryStore
import ModalwatchTesting
import XCTest

/// WAL checkpoints on their own thread, on a real SQLite file: the writer never
/// checkpoints, the checkpointer moves its frames into the database file.
final class HistoryCheckpointerTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "mw-checkpoint").url
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func rows(_ range: Range<Int>) -> [StoredViolation] {
        range.map { n in
            StoredViolation(
                id: String(format: "%032x", n),
                fingerprint: String(format: "%016x", n),
                rule: "alert-frequency",
                app: "com.a",
                session: "S\(n % 7)",
                severity: "warning",
                ts: 1000 + Int64(n),
                observed: Int64(n),
                json: #"{"v":1,"id":"\#(String(format: "%032x", n))","pad":"\#(String(repeating: "x", count: 600))"}"#
            )
        }
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    func testTheWriterLeavesCheckpointsToTheCheckpointer() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let history = try ViolationHistory(path: path, checkpointsElsewhere: true)
        let sizeBefore = fileSize(path)
        // Well past SQLite's usual automatic threshold (1000 pages): the writer alone never checkpoints.
        for chunk in stride(from: 0, to: 6000, by: 500) { try history.insert(rows(chunk..<chunk + 500)) }
        XCTAssertGreaterThan(fileSize(path + "-wal"), 4_000_000, "the WAL holds every commit")
        XCTAssertEqual(fileSize(path), sizeBefore, "nothing reached the database file without a checkpointer")

        let checkpointer = HistoryCheckpointer(path: path, intervalMs: 20)
        try checkpointer.start()
        let deadline = Date().addingTimeInterval(10)
        while fileSize(path) < 4_000_000 && Date() < deadline { usleep(10_000) }
        // Writing goes on while it checkpoints.
        try history.insert(rows(6000..<6500))
        checkpointer.stop()
        XCTAssertGreaterThan(fileSize(path), 4_000_000, "the checkpointer moved the frames into the database file")
        XCTAssertGreaterThan(checkpointer.counts.done, 0)
        XCTAssertEqual(checkpointer.counts.failed, 0)
        XCTAssertEqual(try history.count(), 6500)
        XCTAssertEqual(try ViolationHistory(path: path, readOnly: true).count(), 6500)
    }

    func testASteadyFlowOfSmallCommitsKeepsTheWALShort() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let history = try ViolationHistory(path: path, checkpointsElsewhere: true)
        let checkpointer = HistoryCheckpointer(path: path, intervalMs: 5, restartFrames: 64)
        try checkpointer.start()
        // One violation a commit, back to back: a PASSIVE checkpoint alone never finds the WAL
        // without new frames, so without the RESTARTs the WAL holds every commit (tens of MiB).
        var longest = 0
        for n in 0..<2000 {
            try history.insert(rows(n..<n + 1))
            usleep(100)
            if n % 50 == 0 { longest = max(longest, fileSize(path + "-wal")) }
        }
        checkpointer.stop()
        // At least one page a commit: without RESTARTs the WAL would hold 8 MB or more. Half of
        // that leaves room for a checkpointer held off its turns by a loaded machine.
        let walBytesWritten = 2000 * 4096
        XCTAssertGreaterThan(checkpointer.restarts, 0, "the WAL was started over")
        XCTAssertLessThan(longest, walBytesWritten / 2, "the WAL stayed short: \(longest) bytes at most")
        XCTAssertEqual(try ViolationHistory(path: path, readOnly: true).count(), 2000)
    }

    func testStopWithoutStartReturns() {
        HistoryCheckpointer(path: directory.appendingPathComponent("none.sqlite").path).stop()
    }

    func testAnIdleWALIsRestartedOnce() throws {
        let path = directory.appendingPathComponent("h.sqlite").path
        let history = try ViolationHistory(path: path, checkpointsElsewhere: true)
        for chunk in stride(from: 0, to: 400, by: 10) { try history.insert(rows(chunk..<chunk + 10)) }
        let checkpointer = HistoryCheckpointer(path: path, intervalMs: 5, restartFrames: 64)
        try checkpointer.start()
        defer { checkpointer.stop() }
        let deadline = Date().addingTimeInterval(10)
        while checkpointer.restarts == 0 && Date() < deadline { usleep(5_000) }
        XCTAssertEqual(checkpointer.restarts, 1, "the long WAL was started over")
        // No commit since: the WAL keeps its length until the writer's next commit starts it
        // over, and the turns meanwhile neither RESTART nor sync again.
        let turns = checkpointer.counts.done
        while checkpointer.counts.done < turns + 20 && Date() < deadline { usleep(5_000) }
        XCTAssertGreaterThanOrEqual(checkpointer.counts.done, turns + 20)
        XCTAssertEqual(checkpointer.restarts, 1)
        // The next commit starts the WAL over; the checkpointer goes on.
        try history.insert(rows(400..<410))
        XCTAssertEqual(try history.count(), 410)
    }
}
