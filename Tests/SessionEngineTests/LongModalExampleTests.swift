import Foundation
import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// `Examples/long-modal/long_modal.c`, compiled with cc and loaded through the real loader.
final class LongModalExampleTests: XCTestCase {
    private static let source = ModuleCompiler.packageRoot.appendingPathComponent("Examples/long-modal/long_modal.c")
    private static let modules = ModuleCompiler.compileOnce(label: "long-modal", fixtures: [], sources: [source])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    private func harness(_ configuration: EngineConfiguration = .init()) throws -> Harness {
        try Harness(modules: Self.modules, configuration: configuration)
    }

    private let t0: Int64 = 1_700_000_000_000

    func testEveryExampleFiresAsDeclared() throws {
        let catalog = Harness.load(try Self.modules.get())
        XCTAssertEqual(catalog.failures.map(\.description), [])
        let outcomes = ExampleRunner(catalog: catalog).assertAll()
        XCTAssertEqual(outcomes.count, 6, "four examples in current, one in 2009 and ios7")
    }

    func testTheModuleDescribesItself() throws {
        let catalog = Harness.load(try Self.modules.get())
        let module = try XCTUnwrap(catalog.modules.first)
        XCTAssertEqual(module.name, "examples")
        XCTAssertEqual(module.path, try Self.modules.get() + "/long_modal.so")
        let rule = try XCTUnwrap(catalog.rule(id: "modal-lingering"))
        XCTAssertEqual(rule.module, "examples")
        XCTAssertEqual(rule.guideline, "Keep modal tasks simple, short, and narrowly focused")
        XCTAssertEqual(rule.source, "current: Modality")
        XCTAssertEqual(rule.editions, [.current])
        XCTAssertEqual(rule.fire, .oncePerSubject)
        XCTAssertEqual(rule.parameters.map(\.name), ["max_duration"])
        XCTAssertEqual(rule.parameters.first?.kind, .durationMs)
        XCTAssertEqual(rule.parameters.first?.defaultValue, 600_000)
        XCTAssertEqual(rule.parameters.first.map { $0.format($0.defaultValue) }, "600 s")
        XCTAssertFalse(rule.summary.isEmpty)
        XCTAssertTrue(rule.examples.contains { $0.expected > 0 })
        XCTAssertTrue(rule.examples.contains { $0.expected == 0 })
    }

    func testTheViolationNamesTheModalAndItsFigures() throws {
        let h = try harness()
        h.send(
            Line.start("L", t0, app: "com.example.notes"),
            Line.present("modal", "L", t0 + 1000, "compose"),
            Line.action("L", t0 + 631_000, label: "Italic"),
            Line.action("L", t0 + 721_000, label: "Underline")
        )
        let fired = h.violations(of: "modal-lingering")
        XCTAssertEqual(fired.count, 1)
        let violation = try XCTUnwrap(fired.first)
        XCTAssertEqual(violation.topic, "violation/com.example.notes/modal-lingering")
        XCTAssertEqual(violation.object["module"] as? String, "examples")
        XCTAssertEqual(violation.object["severity"] as? String, "info")
        XCTAssertEqual(violation.object["subject"] as? String, "compose")
        XCTAssertEqual(violation.object["ts"] as? Int, Int(t0 + 631_000))
        XCTAssertEqual(
            violation.object["message"] as? String,
            "a modal view has been open for 630 s; the limit is 600 s"
        )
        XCTAssertEqual(violation.evidence["modal"] as? String, "compose")
        XCTAssertEqual(violation.evidence["open_ms"] as? Int, 630_000)
        XCTAssertEqual(violation.evidence["max_duration_ms"] as? Int, 600_000)
        XCTAssertEqual(violation.evidence["presented_ts"] as? Int, Int(t0 + 1000))
        let events = try XCTUnwrap(violation.object["events"] as? [[String: Any]])
        XCTAssertEqual(events.map { $0["type"] as? String }, ["modal.presented", "user.action"])
        XCTAssertEqual(events.first?["id"] as? String, "compose")
        XCTAssertEqual(events.first?["ts"] as? Int, Int(t0 + 1000))
    }

    func testOnlyTheTopmostModalIsJudged() throws {
        let h = try harness()
        h.send(
            Line.start("L", t0),
            Line.present("modal", "L", t0 + 1000, "compose"),
            Line.alert("L", t0 + 2000, "a1"),
            Line.action("L", t0 + 700_000),  // an alert is topmost
            Line.dismiss("alert", "L", t0 + 710_000, "a1", #""button":0"#)
        )  // the modal is topmost again
        XCTAssertEqual(h.violations(of: "modal-lingering").map(\.ts), [t0 + 710_000])
    }

    func testAModalThatDoesNotStayTooLongIsFineAndTheLimitIsAParameter() throws {
        let stream = [
            Line.start("L", t0),
            Line.present("modal", "L", t0 + 1000, "compose"),
            Line.action("L", t0 + 251_000),
            Line.action("L", t0 + 301_000),
        ]
        let defaults = try harness()
        defaults.send(stream)
        XCTAssertEqual(defaults.violations(of: "modal-lingering").count, 0)

        let strict = try harness(
            EngineConfiguration(rules: ["modal-lingering": .init(parameters: ["max_duration": 240_000])])
        )
        strict.send(stream)
        XCTAssertEqual(strict.violations(of: "modal-lingering").map(\.ts), [t0 + 251_000])
    }
}
