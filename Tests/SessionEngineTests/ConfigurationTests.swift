import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// Editions, enabling, parameters and severities from `EngineConfiguration`, globally and per app,
/// and `Engine.reconfigure`.
final class ConfigurationTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "configuration", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    private func harness(_ configuration: EngineConfiguration = .init()) throws -> Harness {
        try Harness(modules: Self.modules, configuration: configuration)
    }

    private let legacy = "com.example.legacy"

    func testARuleThatDoesNotApplyInTheAppsEditionIsNotCalled() throws {
        let h = try harness(EngineConfiguration(apps: [legacy: .init(edition: .edition2009)]))
        h.send(
            Line.start("N", 1000, app: "com.example.new"),
            Line.event("app.background", "N", 1100),
            Line.start("L", 1000, app: legacy),
            Line.event("app.background", "L", 1100)
        )
        let fired = h.violations(of: "probe-edition")
        XCTAssertEqual(fired.map(\.session), ["L"], "probe-edition applies in 2009 only")
        XCTAssertEqual(fired.first?.object["edition"] as? String, "2009")
        XCTAssertEqual(fired.first?.evidence["edition"] as? Int, 1, "mw_call.edition is MW_EDITION_2009")
        let editions = h.views.map { ($0.string("session") ?? "", $0.int("edition") ?? 0) }
        XCTAssertEqual(editions.map(\.1), [4, 4, 1, 1])
        XCTAssertEqual(
            h.violations(of: "probe-view").map { $0.object["edition"] as? String },
            ["current", "current", "2009", "2009"]
        )
    }

    func testTheDefaultEditionAppliesToAppsTheConfigDoesNotName() throws {
        let h = try harness(EngineConfiguration(defaultEdition: .edition2009, apps: [legacy: .init(edition: .current)]))
        h.send(
            Line.start("A", 1000, app: "com.example.unnamed"),
            Line.event("app.background", "A", 1100),
            Line.start("L", 1000, app: legacy),
            Line.event("app.background", "L", 1100)
        )
        XCTAssertEqual(h.violations(of: "probe-edition").map(\.session), ["A"])
        XCTAssertEqual(h.engine.profile(forApp: nil).edition, .edition2009)
        XCTAssertEqual(h.engine.profile(forApp: legacy).edition, .current)
        XCTAssertEqual(h.engine.profile(forApp: "com.example.unnamed").edition, .edition2009)
    }

    func testAnUnknownSessionNamingItsAppGetsThatAppsProfile() throws {
        let h = try harness(EngineConfiguration(apps: [legacy: .init(edition: .edition2009)]))
        h.send(
            Line.event("app.background", "X", 1000),
            Line.event("app.background", "X", 1100, #""app":"\#(legacy)""#)
        )
        XCTAssertEqual(h.violations(of: "probe-edition").map(\.ts), [1100])
    }

    func testADisabledRuleIsNotCalledAndAnAppCanEnableItAgain() throws {
        let h = try harness(
            EngineConfiguration(
                rules: ["probe-view": .init(enabled: false)],
                apps: [legacy: .init(rules: ["probe-view": .init(enabled: true)])]
            )
        )
        h.send(Line.start("N", 1000, app: "com.example.new"), Line.start("L", 1000, app: legacy))
        XCTAssertEqual(h.violations(of: "probe-view").map(\.session), ["L"])
        XCTAssertNil(h.engine.profile(forApp: nil).rules.first { $0.descriptor.id == "probe-view" })
    }

    func testAParameterOverrideChangesVerdictsGloballyAndPerApp() throws {
        let alerts = { (session: String) in (1...5).map { Line.alert(session, Int64(1000 + $0), "a\($0)") } }
        let defaults = try harness()
        defaults.send([Line.start("S", 1000)] + alerts("S"))
        XCTAssertEqual(defaults.violations(of: "probe-threshold").map(\.ts), [1004, 1005], "limit 3 by default")
        XCTAssertEqual(
            defaults.violations(of: "probe-threshold").first?.object["message"] as? String,
            "4 alerts in the session; the limit is 3"
        )

        let h = try harness(
            EngineConfiguration(
                rules: [
                    "probe-threshold": .init(parameters: ["limit": 4]), "probe-view": .init(parameters: ["echo": 9]),
                ],
                apps: [legacy: .init(rules: ["probe-threshold": .init(parameters: ["limit": 1])])]
            )
        )
        h.send([Line.start("N", 1000, app: "com.example.new")] + alerts("N"))
        h.send([Line.start("L", 1000, app: legacy)] + alerts("L"))
        let fired = h.violations(of: "probe-threshold")
        XCTAssertEqual(fired.filter { $0.session == "N" }.map(\.ts), [1005], "limit 4 globally")
        XCTAssertEqual(fired.filter { $0.session == "L" }.map(\.ts), [1002, 1003, 1004, 1005], "limit 1 for the app")
        XCTAssertEqual(fired.filter { $0.session == "L" }.first?.evidence["limit"] as? Int, 1)
        XCTAssertEqual(Set(h.views.map { $0.int("param") }), [9], "a global parameter reaches every app")
        XCTAssertEqual(defaults.views.first?.int("param"), 7, "the declared default")

        let rule = try XCTUnwrap(h.engine.profile(forApp: legacy).rules.first { $0.descriptor.id == "probe-threshold" })
        XCTAssertEqual(rule.value(of: "limit"), 1)
        XCTAssertNil(rule.value(of: "nope"))
    }

    func testReconfigureKeepsSessionsAndTheirState() throws {
        let h = try harness()
        h.send(
            Line.start("L", 1000, app: legacy),
            Line.present("modal", "L", 1100, "m1"),
            Line.alert("L", 1150, "a1"),
            Line.event("app.foreground", "L", 1200),
            Line.event("app.foreground", "L", 1300),
            Line.event("app.background", "L", 1350)
        )
        XCTAssertEqual(h.violations(of: "probe-edition").count, 0)
        XCTAssertEqual(h.violations(of: "probe-counter").last?.evidence["session"] as? Int, 2)

        h.engine.reconfigure(
            EngineConfiguration(
                rules: ["probe-counter": .init(severity: .error)],
                apps: [legacy: .init(edition: .edition2009)]
            )
        )
        XCTAssertEqual(h.engine.configuration.apps[legacy]?.edition, .edition2009)
        h.send(
            Line.event("app.foreground", "L", 1400),
            Line.event("app.background", "L", 1500),
            Line.alert("L", 1600, "a1")
        )

        let counted = try XCTUnwrap(h.violations(of: "probe-counter").last)
        XCTAssertEqual(counted.evidence["session"] as? Int, 3, "the session's counters survive")
        XCTAssertEqual(counted.evidence["app"] as? Int, 3, "the app's counters survive")
        XCTAssertEqual(counted.object["severity"] as? String, "error", "the new severity is in force")
        XCTAssertEqual(counted.object["edition"] as? String, "2009", "the new edition is in force")
        XCTAssertEqual(h.violations(of: "probe-edition").map(\.ts), [1500])
        let view = try h.lastView()
        XCTAssertEqual(view.stackIDs, ["m1", "a1", "a1"], "the stack survives")
        XCTAssertEqual(view.int("events"), 9)
        XCTAssertEqual(view.int("started_ts"), 1000)
        XCTAssertEqual(h.violations(of: "probe-subject").count, 1, "what once-per-subject rules fired for survives")
        XCTAssertEqual(h.engine.liveSessions, 1)
    }
}
