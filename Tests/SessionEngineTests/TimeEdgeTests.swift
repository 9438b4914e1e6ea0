import SessionEngine
import XCTest

/// Event times at the edge of 64 bits (issue 13): the engine's time arithmetic saturates.
final class TimeEdgeTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "time-edge", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    func testAMaximalTsThenANormalOneIsOutOfOrderNotARestart() throws {
        let h = try Harness(modules: Self.modules)
        h.send(
            Line.start("S", Int64.max, app: "com.example.mail", #""seq":1"#),
            Line.action("S", 1_732_290_000_000, #""seq":2"#),
            Line.alert("S", 1_732_290_001_000, "a1", #""seq":3"#))
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
        h.send(
            Line.start("W", Int64.max - 10, #""seq":1"#),
            Line.alert("W", Int64.max - 5, "w1", #""seq":2"#),
            Line.alert("W", Int64.max - 4, "w2", #""seq":3"#))
        let fired = h.output.violations.filter { $0.rule == "probe-window" }
        XCTAssertEqual(fired.count, 1)
    }
}
