import ModalwatchTesting
import SessionEngine
import XCTest

/// Event times at the edge of 64 bits: the decoder refuses a `ts` past the end of year 9999, but a
/// session restored from an older daemon's snapshot may hold one, and the engine's time arithmetic
/// saturates. These events go to the engine past the decoder (`Harness.sendPastTheDecoder`).
final class TimeEdgeTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "time-edge", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    func testAMaximalTsThenANormalOneIsOutOfOrderNotARestart() throws {
        let h = try Harness(modules: Self.modules)
        h.sendPastTheDecoder(Line.start("S", 1, app: "com.example.mail", #""seq":1"#), ts: .max)
        h.send(
            Line.action("S", 1_732_290_000_000, #""seq":2"#),
            Line.alert("S", 1_732_290_001_000, "a1", #""seq":3"#)
        )
        XCTAssertEqual(h.engine.statistics.sessionsStarted, 1, "a wrapped latest + idle timeout restarted the session")
        XCTAssertEqual(h.engine.statistics.outOfOrder, 2)
        XCTAssertEqual(h.output.diagnostics(.outOfOrder).count, 2)
        XCTAssertEqual(h.views.count, 3)
        XCTAssertEqual(try h.lastView().stackIDs, ["a1"], "the session kept its state")
    }

    func testAWindowEndingPastTheLastMillisecondStaysQuiet() throws {
        // A rule quiet for a window after firing at ts near 2^63: the end of the window is held
        // at Int64.max, not wrapped to a negative time that would let it fire again at once.
        let h = try Harness(modules: Self.modules)
        h.sendPastTheDecoder(Line.start("W", 1, #""seq":1"#), ts: .max - 10)
        h.sendPastTheDecoder(Line.alert("W", 1, "w1", #""seq":2"#), ts: .max - 5)
        h.sendPastTheDecoder(Line.alert("W", 1, "w2", #""seq":3"#), ts: .max - 4)
        let fired = h.output.violations.filter { $0.rule == "probe-window" }
        XCTAssertEqual(fired.count, 1)
    }

    func testSaturatingSumsAndDifferences() {
        XCTAssertEqual(Int64.max.addingSaturated(1), .max)
        XCTAssertEqual(Int64.min.addingSaturated(-1), .min)
        XCTAssertEqual(Int64(5).addingSaturated(-7), -2)
        XCTAssertEqual(Int64.max.subtractingSaturated(-1), .max)
        XCTAssertEqual(Int64.min.subtractingSaturated(1), .min)
        XCTAssertEqual(Int64(0).subtractingSaturated(.min), .max)
        XCTAssertEqual(Int64(-1).subtractingSaturated(.max), .min)
        XCTAssertEqual(Int64(5).subtractingSaturated(7), -2)
    }
}
