import ModalwatchTesting
import SessionEngine
import XCTest

/// events.md, "Ordering and time": `seq` duplicates and gaps, and events earlier than the session's latest.
final class OrderingTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "ordering", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    private func harness() throws -> Harness { try Harness(modules: Self.modules) }

    func testAnEventWhoseSeqIsNotAboveTheLastIsADuplicateAndDropped() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail", #""seq":1"#),
            Line.alert("S", 1100, "a1", #""seq":2"#),
            Line.alert("S", 1200, "a2", #""seq":2"#),
            Line.alert("S", 1300, "a3", #""seq":1"#),
            Line.alert("S", 1400, "a4", #""seq":3"#)
        )
        XCTAssertEqual(h.views.count, 3)
        XCTAssertEqual(try h.lastView().stackIDs, ["a1", "a4"])
        let duplicates = h.output.diagnostics(.duplicate)
        XCTAssertEqual(duplicates.count, 2)
        XCTAssertEqual(duplicates.first?.session, "S")
        XCTAssertEqual(duplicates.first?.app, "com.example.mail")
        XCTAssertTrue(duplicates.first?.detail.contains("seq 2") ?? false, duplicates.first?.detail ?? "")
        XCTAssertEqual(h.engine.statistics.duplicates, 2)
        XCTAssertEqual(h.output.diagnostics(.gap).count, 0)
        XCTAssertEqual(h.views.map { $0.int("seq") }, [1, 2, 3])
    }

    func testASeqJumpCountsTheMissingEventsAsLost() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, #""seq":1"#),
            Line.action("S", 1100, #""seq":5"#),
            Line.action("S", 1200, #""seq":6"#),
            Line.action("S", 1300, #""seq":10"#)
        )
        XCTAssertEqual(h.views.count, 4, "events after a gap are judged")
        let gaps = h.output.diagnostics(.gap)
        XCTAssertEqual(gaps.count, 2)
        XCTAssertTrue(gaps.first?.detail.contains("3 event(s) lost") ?? false, gaps.first?.detail ?? "")
        XCTAssertEqual(h.engine.statistics.eventsLost, 6)
    }

    func testSeqAtEveryEdgeIsBoundedAndNeverOverflowsACount() throws {
        let h = try harness()
        // Past 2^53 - 1: bad_field at the edge; at it: a gap of 2^53 - 3, counted.
        h.send(
            Line.start("S", 1000, #""seq":1"#),
            Line.action("S", 1100, #""seq":9223372036854775807"#),
            Line.action("S", 1200, #""seq":9007199254740992"#),
            Line.action("S", 1300, #""seq":9007199254740991"#)
        )
        XCTAssertEqual(h.engine.statistics.eventsLost, 9_007_199_254_740_989)
        // Counts summed over many sessions hold at their maximum instead of trapping.
        for n in 0..<2100 {
            h.send(Line.action("T\(n)", 1000, #""seq":9007199254740991,"app":"com.example.app""#))
        }
        XCTAssertEqual(h.engine.statistics.eventsMissingBeforeFirst, UInt64.max)
    }

    func testEventsWithoutSeqAreNeverDuplicates() throws {
        let h = try harness()
        let line = Line.action("S", 1000)
        h.send(Line.start("S", 1000), line, line, line)
        XCTAssertEqual(h.views.count, 4)
        XCTAssertEqual(h.output.diagnostics.count, 0)
    }

    func testResendingAStreamWithSeqIsIdempotent() throws {
        let h = try harness()
        let stream = [
            Line.start("S", 1000, #""seq":1"#),
            Line.alert("S", 1100, "a1", #""seq":2"#),
            Line.action("S", 1150, label: "x", #""seq":3"#),
            Line.present("sheet", "S", 1200, "s1", #""seq":4"#),
            Line.dismiss("sheet", "S", 1300, "s1", #""seq":5"#),
        ]
        h.send(stream)
        let firstViolations = h.output.violations.map(\.json)
        let firstSnapshot = h.engine.sessionSnapshot(id: "S")
        h.send(stream)
        h.sendBatch(stream)
        XCTAssertEqual(h.output.violations.map(\.json), firstViolations, "a resend yields nothing new")
        XCTAssertEqual(h.engine.sessionSnapshot(id: "S"), firstSnapshot, "nor changes the session")
        XCTAssertEqual(h.output.diagnostics(.duplicate).count, 10)
        XCTAssertEqual(h.engine.statistics.eventsJudged, 5)
    }

    func testAnEarlierEventIsJudgedAtTheSessionsLatestTime() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.alert("S", 2000, "a1"),
            Line.action("S", 1500, label: "late", #""seq":4"#)
        )
        let late = try h.lastView()
        XCTAssertEqual(late.int("ts"), 2000, "judged at the latest ts")
        XCTAssertEqual(late.int("ts_sent"), 1500, "the time as sent")
        XCTAssertEqual(late.int("last_ts"), 2000)
        XCTAssertEqual(late.int("previous_ts"), 2000)
        let outOfOrder = h.output.diagnostics(.outOfOrder)
        XCTAssertEqual(outOfOrder.count, 1)
        XCTAssertEqual(outOfOrder.first?.session, "S")
        XCTAssertEqual(outOfOrder.first?.app, "com.example.mail")
        XCTAssertEqual(h.engine.statistics.outOfOrder, 1)

        let violation = try XCTUnwrap(h.violations(of: "probe-every").last)
        XCTAssertEqual(violation.object["ts"] as? Int, 2000)
        XCTAssertEqual(violation.ts, 2000)
        let events = try XCTUnwrap(violation.object["events"] as? [[String: Any]])
        XCTAssertEqual(events.last?["ts"] as? Int, 2000)
        XCTAssertEqual(events.last?["seq"] as? Int, 4)

        // The clamped event does not move the session's time backwards, nor forwards past what was sent.
        h.send(Line.action("S", 2100))
        let next = try h.lastView()
        XCTAssertEqual(next.int("previous_ts"), 2000)
        XCTAssertEqual(next.int("ts"), 2100)
        XCTAssertEqual(next.int("ts_sent"), 2100)
        XCTAssertEqual(h.output.diagnostics(.outOfOrder).count, 1)
    }

    func testAPresentationArrivingLateIsStackedAtTheLatestTime() throws {
        let h = try harness()
        h.send(Line.start("S", 1000), Line.action("S", 3000), Line.present("modal", "S", 2000, "m1"))
        XCTAssertEqual(try h.lastView().stack.first?.int("ts"), 3000)
    }

    func testSequenceAndTimeArePerSession() throws {
        let h = try harness()
        h.send(
            Line.action("A", 5000, #""seq":5,"app":"com.example.app""#),
            Line.start("B", 1000, #""seq":1"#),
            Line.action("B", 1100, #""seq":2"#)
        )
        XCTAssertEqual(h.views.count, 3)
        XCTAssertEqual(h.output.diagnostics.filter { $0.session == "B" }.count, 0, "B's seq and ts are its own")
        XCTAssertEqual(h.engine.statistics.eventsLost, 0)
    }

    func testASessionFirstSeenPastSeqOneWithoutItsStartCountsWhatWentBefore() throws {
        let h = try harness()
        h.send(
            // seq 1 to 4 (its start among them) never came
            Line.action("A", 5000, #""seq":5,"app":"com.example.app""#),
            Line.start("B", 1000, #""seq":7"#),  // a start may open at any seq
            Line.action("B", 1100, #""seq":8"#)
        )
        XCTAssertEqual(h.engine.statistics.eventsMissingBeforeFirst, 4)
        XCTAssertEqual(h.engine.statistics.eventsLost, 0)
        XCTAssertEqual(h.output.diagnostics(.gap).map(\.session), ["A"])
    }
}
