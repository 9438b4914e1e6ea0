import ModalwatchTesting
import SessionEngine
import XCTest

/// A rule that fires on every event is held to `maxViolationsPerRulePerSecond`
/// per second of event time; what it holds back is counted, per rule.
final class RateLimitTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "rate", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    func testAnEveryEventRuleIsHeldToItsRatePerEventSecond() throws {
        let h = try Harness(modules: Self.modules, configuration: EngineConfiguration(maxViolationsPerRulePerSecond: 5))
        var lines = [Line.start("S", 10_000)]
        for i in 0..<20 { lines.append(Line.action("S", 10_000 + Int64(i) * 10)) }  // 20 in one second
        for i in 0..<3 { lines.append(Line.action("S", 11_000 + Int64(i))) }  // 3 in the next
        h.send(lines)
        XCTAssertEqual(h.violations(of: "probe-every").count, 5 + 3)
        XCTAssertGreaterThanOrEqual(
            h.engine.statistics.violationsRateLimited,
            15,
            "other every-event probe rules are held too"
        )
        XCTAssertEqual(h.engine.violationsRateLimitedByRule["probe-every"], 15)
    }

    func testTheLimitIsTheSameOfflineAndLiveBecauseItCountsEventTime() throws {
        let configuration = EngineConfiguration(maxViolationsPerRulePerSecond: 3)
        var lines = [Line.start("S", 0)]
        for i in 0..<50 { lines.append(Line.action("S", Int64(i) * 100)) }  // 10 per event-second, 5 s
        let first = try Harness(modules: Self.modules, configuration: configuration)
        first.observed = 1_000
        first.send(lines)
        let second = try Harness(modules: Self.modules, configuration: configuration)
        second.observed = 9_999_999
        second.sendBatch(lines)
        XCTAssertEqual(first.violations(of: "probe-every").count, 15)
        XCTAssertEqual(first.violations(of: "probe-every").map(\.ts), second.violations(of: "probe-every").map(\.ts))
    }
}
