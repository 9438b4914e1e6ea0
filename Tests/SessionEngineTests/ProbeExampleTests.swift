import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// The example runner over the probe module, and the runner's own ability to fail.
final class ProbeExampleTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "probe-examples", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    func testEveryExampleOfTheProbeModuleFiresAsDeclared() throws {
        let catalog = Harness.load(try Self.modules.get())
        XCTAssertEqual(catalog.failures.map(\.description), [])
        let outcomes = ExampleRunner(catalog: catalog).assertAll()
        // 12 rules, 2 examples each (probe-view 3); all in three editions except probe-edition's (1 + 2).
        XCTAssertEqual(outcomes.count, 10 * 2 * 3 + 3 * 3 + 3)
        XCTAssertEqual(Set(outcomes.map(\.rule)).count, 12)
    }

    func testTheRunnerReportsAWrongExpectation() throws {
        let catalog = Harness.load(try Self.modules.get())
        let rule = try XCTUnwrap(catalog.rule(id: "probe-window"))
        var example = try XCTUnwrap(rule.examples.first)
        example.expected = 3
        let outcome = ExampleRunner(catalog: catalog).run(rule, example, edition: .ios7)
        XCTAssertFalse(outcome.passed)
        XCTAssertEqual(outcome.fired, 2)
        XCTAssertTrue(outcome.description.contains("probe/probe-window"), outcome.description)
        XCTAssertTrue(
            outcome.description.contains("in edition ios7: expected 3 violation(s), got 2"),
            outcome.description
        )
    }

    func testTheRunnerReportsRejectedEventsOfABrokenExample() throws {
        let catalog = Harness.load(try Self.modules.get())
        let rule = try XCTUnwrap(catalog.rule(id: "probe-view"))
        let example = RuleExample(
            name: "a typo",
            editions: [.current],
            expected: 1,
            events: Line.start("E", 1000) + "\n\n" + #"{"v":1,"type":"alert.presented","session":"E","ts":1100}"# + "\n"
        )
        let outcome = ExampleRunner(catalog: catalog).run(rule, example, edition: .current)
        XCTAssertEqual(outcome.fired, 1)
        XCTAssertFalse(outcome.passed, "the count matches, but an event was rejected")
        XCTAssertEqual(outcome.rejected.count, 1)
        XCTAssertTrue(outcome.rejected.first?.hasPrefix("missing_field") ?? false, "\(outcome.rejected)")
    }

    func testTheRunnerReportsRulesWithoutBothKindsOfExample() throws {
        let catalog = Harness.load(try Self.modules.get())
        var trimmed = catalog
        trimmed.modules[0].rules[1].examples.removeAll { $0.expected == 0 }
        trimmed.modules[0].rules[2].examples.removeAll { $0.expected > 0 }
        trimmed.modules[0].rules[3].examples = []
        XCTAssertEqual(
            ExampleRunner(catalog: trimmed).coverageProblems(),
            [
                "probe/probe-subject has no example that does not trigger it",
                "probe/probe-window has no example that triggers it",
                "probe/probe-session has no examples",
            ]
        )
        XCTAssertEqual(ExampleRunner(catalog: catalog).coverageProblems(), [])
    }
}
