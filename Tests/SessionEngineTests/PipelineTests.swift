import ModalwatchTesting
import SessionEngine
import XCTest

/// `EventPipeline`: batches, rejections before the engine, and its counters.
final class PipelineTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "pipeline", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    func testABadEventInABatchRejectsOnlyItself() throws {
        let h = try Harness(modules: Self.modules)
        h.sendBatch([
            Line.start("S", 1000, app: "com.example.mail"),
            #"{"v":1,"type":"alert.presented","session":"S","ts":1100}"#,
            #"{"v":1,"type":"alert.presented","session":"S","ts":"soon","id":"a0"}"#,
            #"{"v":1,"type":"#,
            Line.alert("S", 1200, "a1"),
        ])
        XCTAssertEqual(h.views.count, 2, "the good events around the bad ones are judged")
        XCTAssertEqual(try h.lastView().stackIDs, ["a1"])
        XCTAssertEqual(h.pipeline.statistics.messages, 1)
        XCTAssertEqual(h.pipeline.statistics.eventsReceived, 5)
        XCTAssertEqual(
            h.pipeline.statistics.rejectedByReason,
            ["missing_field": 1, "bad_field": 1, "malformed_json": 1]
        )
        XCTAssertEqual(h.pipeline.eventsRejected, 3)
        let missing = try XCTUnwrap(h.output.diagnostics(.missingField).first)
        XCTAssertEqual(missing.session, "S", "a rejection names the session when it can")
        XCTAssertEqual(h.engine.statistics.eventsAccepted, 2)
    }

    func testRejectMessageCountsAndReports() throws {
        let h = try Harness(modules: Self.modules)
        h.pipeline.rejectMessage(.malformedJSON, detail: "3 frames")
        XCTAssertEqual(h.pipeline.statistics.rejectedByReason, ["malformed_json": 1])
        XCTAssertEqual(
            h.output.diagnostics,
            [.init(reason: .malformedJSON, app: nil, session: nil, detail: "3 frames")]
        )
        XCTAssertEqual(h.output.violations.count, 0)
    }
}
