import Foundation
import ModalwatchTesting
import SessionEngine
import XCTest

/// The journal read in slices for the control socket (so that no control request holds the
/// engine's thread for more than 1 ms): a `session`'s journal copy and a `sessions` scan's alerts
/// go a step of `Engine.journalStep` entries at a time, and give what one pass gives; entries the
/// ring overwrites between two slices are left out, never read half-written.
final class JournalSlicesTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "mw-journal-slices-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A pipeline with no rule modules: the engine records every judged event in its journal.
    private func pipeline() -> EventPipeline {
        EventPipeline(catalog: Harness.load(folder), configuration: .init(), output: CollectingOutput())
    }

    private func send(_ pipeline: EventPipeline, _ lines: [String]) {
        for line in lines {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes {
                pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 1_700_000_000_000)
            }
        }
    }

    /// Session S's start and `actions` actions, interleaved with as many events of session T.
    private func interleaved(actions: Int) -> [String] {
        var lines = [Line.start("S", 1_000), Line.start("T", 1_000)]
        for n in 0..<actions {
            lines.append(Line.action("S", 1_001 + Int64(n), label: "s\(n)"))
            lines.append(Line.action("T", 1_001 + Int64(n), label: "t\(n)"))
        }
        return lines
    }

    func testASessionsJournalCopiedOneStepATurnIsWhatOnePassCopies() throws {
        let pipeline = pipeline()
        let engine = pipeline.engine
        send(pipeline, interleaved(actions: 300))
        let whole = try XCTUnwrap(engine.continueJournalCopy(engine.startJournalCopy(session: "S")) { false })
        let copying = engine.startJournalCopy(session: "S")
        var turns = 1
        var sliced = engine.continueJournalCopy(copying) { true }
        while sliced == nil {
            turns += 1
            XCTAssertLessThan(turns, 1000)
            sliced = engine.continueJournalCopy(copying) { true }
        }
        XCTAssertEqual(
            turns,
            (602 + Engine.journalStep - 1) / Engine.journalStep,
            "one step of journalStep entries a turn"
        )
        let excerpt = try XCTUnwrap(sliced).excerpt()
        XCTAssertEqual(excerpt.records, whole.excerpt().records)
        XCTAssertEqual(excerpt.records.count, 301, "S's start and its 300 actions, in more than one piece")
        XCTAssertEqual(excerpt.records.first?.type, "session.start")
        XCTAssertEqual(excerpt.records.last?.title, "s299")
        XCTAssertTrue(excerpt.complete)
    }

    func testEntriesTheRingOverwritesBetweenSlicesAreLeftOut() throws {
        let pipeline = pipeline()
        let engine = pipeline.engine
        send(pipeline, interleaved(actions: 300))
        let copying = engine.startJournalCopy(session: "S")
        XCTAssertNil(engine.continueJournalCopy(copying) { true }, "one step, more to come")
        // Meanwhile ingest fills the whole ring with session U: S's older entries are gone.
        send(
            pipeline,
            [Line.start("U", 2_000)] + (0..<engine.journal.capacity).map { Line.action("U", 2_001 + Int64($0)) }
        )
        let excerpt = try XCTUnwrap(engine.continueJournalCopy(copying) { true }, "nothing left to walk").excerpt()
        XCTAssertEqual(
            excerpt.records.count,
            Engine.journalStep / 2,
            "only what the first step copied: S's half of the newest entries"
        )
        XCTAssertEqual(excerpt.records.last?.title, "s299")
        XCTAssertFalse(excerpt.complete, "S's start was not copied")
    }

    func testAScanCopiesTheJournalsAlertsInPiecesBeforeTheSessions() throws {
        let pipeline = pipeline()
        let engine = pipeline.engine
        // 1,500 sessions of two alerts each (3,000 alerts among 7,500 events).
        var lines: [String] = []
        for n in 0..<1_500 {
            let ts = 10_000 + Int64(n) * 10
            lines += [
                Line.start("A\(n)", ts), Line.alert("A\(n)", ts + 1, "x"), Line.dismiss("alert", "A\(n)", ts + 2, "x"),
                Line.alert("A\(n)", ts + 3, "y"), Line.dismiss("alert", "A\(n)", ts + 4, "y"),
            ]
        }
        send(pipeline, lines)
        let scan = Engine.SessionScan(app: nil)
        var alerts = Engine.JournalAlerts()
        var pieces = 0
        var sessions: [Engine.ScannedSession] = []
        var turns = 0
        while !scan.finished {
            turns += 1
            XCTAssertLessThan(turns, 100_000)
            switch engine.continueScan(scan, shouldStop: { true }) {
            case .alerts(let piece):
                XCTAssertTrue(sessions.isEmpty, "every alert comes before the first session")
                alerts.append(piece)
                pieces += 1
            case .sessions(let found):
                sessions += found
            }
        }
        XCTAssertEqual(pieces, (7_500 + Engine.journalStep - 1) / Engine.journalStep, "one step a turn")
        XCTAssertEqual(sessions.count, 1_500)
        let index = alerts.index()
        XCTAssertEqual(
            sessions.map { index.count(for: $0.snapshot, windowMs: 1_000_000).inWindow },
            Array(repeating: 2, count: 1_500)
        )
        XCTAssertTrue(
            sessions.allSatisfy { index.count(for: $0.snapshot, windowMs: 1_000_000).complete },
            "the journal holds every alert"
        )
    }
}
