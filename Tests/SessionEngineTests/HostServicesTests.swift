import ModalwatchTesting
import SessionEngine
import XCTest

/// `mw_host.counter_add` and `mw_host.window_push`: scopes, privacy between rules, and windows in event time.
final class HostServicesTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "host", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    private func harness(_ configuration: EngineConfiguration = .init()) throws -> Harness {
        try Harness(modules: Self.modules, configuration: configuration)
    }

    private func counters(_ h: Harness, _ rule: String, _ key: String) -> [Int?] {
        h.violations(of: rule).map { $0.evidence[key] as? Int }
    }

    func testCountersAreKeptPerSessionAndPerApp() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.event("app.foreground", "S", 1100),
            Line.event("app.foreground", "S", 1200),
            Line.start("T", 1000, app: "com.example.mail"),
            Line.event("app.foreground", "T", 1300),
            Line.start("U", 1000, app: "com.example.notes"),
            Line.event("app.foreground", "U", 1400),
            Line.event("app.foreground", "S", 1500)
        )
        XCTAssertEqual(counters(h, "probe-counter", "session"), [1, 2, 1, 1, 3])
        XCTAssertEqual(counters(h, "probe-counter", "app"), [1, 2, 3, 1, 4])
        XCTAssertEqual(counters(h, "probe-counter", "read"), [1, 2, 1, 1, 3], "delta 0 reads")
        XCTAssertEqual(counters(h, "probe-counter", "other"), [0, 0, 0, 0, 0], "another key starts at 0")
    }

    func testCountersArePrivateToTheirRule() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.event("app.foreground", "S", 1100),
            Line.event("app.foreground", "S", 1200)
        )
        // probe-counter-twin uses the same key "fg", adding 10 (session) and 100 (app).
        XCTAssertEqual(counters(h, "probe-counter-twin", "before"), [0, 10])
        XCTAssertEqual(counters(h, "probe-counter-twin", "session"), [10, 20])
        XCTAssertEqual(counters(h, "probe-counter-twin", "app"), [100, 200])
        XCTAssertEqual(counters(h, "probe-counter", "session"), [1, 2])
        XCTAssertEqual(counters(h, "probe-counter", "app"), [1, 2])
    }

    func testSessionCountersStartAfreshWithANewLaunchButAppCountersDoNot() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.event("app.foreground", "S", 1100),
            Line.end("S", 1200),
            Line.start("S", 2000, app: "com.example.mail"),
            Line.event("app.foreground", "S", 2100),
            Line.start("S", 3000, app: "com.example.mail"),
            Line.event("app.foreground", "S", 3100)
        )
        XCTAssertEqual(counters(h, "probe-counter", "session"), [1, 1, 1])
        XCTAssertEqual(counters(h, "probe-counter", "app"), [1, 2, 3])
    }

    func testWindowKeepsEventTimesWithinTheWindowAndAtMostKeep() throws {
        // span 1000 ms, keep 3 (the parameters' defaults).
        let h = try harness()
        h.send(
            Line.start("S", 0),
            Line.present("popover", "S", 10_000, "p1"),
            Line.present("popover", "S", 10_100, "p2"),
            Line.present("popover", "S", 10_200, "p3"),
            Line.present("popover", "S", 10_300, "p4"),  // four within the window, keep 3
            Line.present("popover", "S", 11_200, "p5"),  // 10 200 is exactly 1000 ms before: kept
            Line.present("popover", "S", 11_301, "p6"),  // 10 200 and 10 300 are older: forgotten
            Line.present("popover", "S", 20_000, "p7"),
            Line.start("T", 0),
            Line.present("popover", "T", 20_000, "q1")
        )  // another session: its own window
        XCTAssertEqual(counters(h, "probe-window-push", "count"), [1, 2, 3, 3, 3, 2, 1, 1])
    }

    func testWindowUsesTheParametersInForce() throws {
        let h = try harness(
            EngineConfiguration(rules: ["probe-window-push": .init(parameters: ["span": 60_000, "keep": 100])])
        )
        h.send([Line.start("S", 0)] + (1...7).map { Line.present("popover", "S", Int64($0 * 10_000), "p\($0)") })
        XCTAssertEqual(counters(h, "probe-window-push", "count"), [1, 2, 3, 4, 5, 6, 7])
    }

    func testTheModuleStateAndTheHostReachTheRule() throws {
        let h = try harness()
        h.send(Line.start("S", 1000))
        let view = try h.lastView()
        XCTAssertEqual(view.fields["state_ok"] as? Bool, true, "mw_call.module_state is mw_module.state, untouched")
        XCTAssertEqual(view.int("rule_index"), 0)
        XCTAssertEqual(
            view.int("host_size"),
            160,
            "sizeof(mw_host) on LP64, ABI 1.5 (skip_language after 1.4's 152 bytes: report_written, five writers, two reserved slots after 1.3's 88)"
        )
    }
}
