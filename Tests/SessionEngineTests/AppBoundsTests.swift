import ModalwatchTesting
import XCTest

@testable import SessionEngine

/// What the engine holds per app is bounded: at most `max_apps` apps without a live session
/// (the least recently seen forgotten first, counted), at most `max_app_values` app-wide
/// counters and firings per app (counted), and the violation rate limit is per app, so one
/// app's flood holds back none of another's violations.
final class AppBoundsTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "appbounds", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    private func counters(_ h: Harness, _ rule: String, app: String) -> [Int?] {
        h.violations(of: rule).filter { $0.app == app }.map { $0.evidence["app"] as? Int }
    }

    func testOneAppsFloodHoldsBackNoneOfAnotherAppsViolations() throws {
        let h = try Harness(modules: Self.modules, configuration: EngineConfiguration(maxViolationsPerRulePerSecond: 5))
        var lines = [
            Line.start("F", 10_000, app: "com.example.flood"), Line.start("Q", 10_000, app: "com.example.quiet"),
        ]
        for i in 0..<20 { lines.append(Line.action("F", 10_000 + Int64(i) * 10)) }  // 20 in one event-second
        for i in 0..<3 { lines.append(Line.action("Q", 10_500 + Int64(i))) }  // 3 in the same second
        h.send(lines)
        let every = h.violations(of: "probe-every")
        XCTAssertEqual(
            every.filter { $0.app == "com.example.quiet" }.count,
            3,
            "the quiet app's violations all go through"
        )
        XCTAssertEqual(every.filter { $0.app == "com.example.flood" }.count, 5)
        XCTAssertEqual(h.engine.violationsRateLimitedByRule["probe-every"], 15)
        XCTAssertEqual(
            h.engine.violationsRateLimitedByApp["com.example.flood"],
            h.engine.statistics.violationsRateLimited
        )
        XCTAssertNil(h.engine.violationsRateLimitedByApp["com.example.quiet"])
    }

    func testTheHeldBackListKeepsTheAppsThatHeldBackMost() throws {
        let h = try Harness(modules: Self.modules, configuration: EngineConfiguration(maxViolationsPerRulePerSecond: 1))
        var lines: [String] = []
        for app in 0..<15 {
            lines.append(Line.start("S\(app)", 10_000, app: "com.example.a\(app)"))
            // app k holds back k + 1 of probe-every's (k + 2 actions in one second, 1 let through)
            for i in 0..<(app + 2) { lines.append(Line.action("S\(app)", 10_001 + Int64(i))) }
        }
        h.send(lines)
        let listed = h.engine.violationsRateLimitedByApp
        XCTAssertEqual(listed.count, HeldBackApps.capacity)
        XCTAssertEqual(Set(listed.keys), Set((5..<15).map { "com.example.a\($0)" }), "the ten that held back most")
        XCTAssertEqual(h.engine.violationsRateLimitedByRule["probe-every"], (1...15).reduce(0, +))
    }

    func testAppsWithoutALiveSessionAreForgottenPastMaxAppsLeastRecentlySeenFirst() throws {
        let h = try Harness(modules: Self.modules, configuration: EngineConfiguration(maxApps: 3))
        // A live app, counted up before the churn.
        h.send(Line.start("L", 1000, app: "com.example.live"), Line.event("app.foreground", "L", 1001))
        // An idle app with state, seen before the churn: forgotten first.
        h.send(
            Line.start("O", 1000, app: "com.example.old"),
            Line.event("app.foreground", "O", 1002),
            Line.end("O", 1003)
        )
        for n in 0..<50 {
            h.send(
                Line.start("C\(n)", 2000 + Int64(n), app: "com.example.churn\(n)"),
                Line.event("app.foreground", "C\(n)", 2000 + Int64(n)),
                Line.end("C\(n)", 2000 + Int64(n))
            )
        }
        XCTAssertLessThanOrEqual(h.engine.appsKnown, 3)
        XCTAssertEqual(h.engine.statistics.appsEvicted, 52 - 3, "every app but the live one and the two most recent")
        // The live app's app-wide counter went on; the forgotten one starts again.
        h.send(
            Line.event("app.foreground", "L", 3000),
            Line.start("O2", 3001, app: "com.example.old"),
            Line.event("app.foreground", "O2", 3002)
        )
        XCTAssertEqual(counters(h, "probe-counter", app: "com.example.live"), [1, 2])
        XCTAssertEqual(counters(h, "probe-counter", app: "com.example.old"), [1, 1])
        // The snapshot never carries more apps than the bound, and a restore keeps to it too.
        let snapshot = h.engine.snapshot()
        XCTAssertLessThanOrEqual(snapshot.apps.count, 3)
        let decoded = try snapshot.binaryEncoded().withUnsafeBytes { try EngineSnapshot.decodeBinary($0) }
        XCTAssertEqual(decoded, snapshot)
        let smaller = try Harness(modules: Self.modules, configuration: EngineConfiguration(maxApps: 1))
        smaller.engine.restore(snapshot)
        XCTAssertEqual(smaller.engine.liveSessions, h.engine.liveSessions)
        XCTAssertLessThanOrEqual(smaller.engine.appsKnown, 2, "the live apps, and none idle past the bound")
    }

    func testASnapshotWhoseLastSessionNamesALateAppIsRead() throws {
        // Many apps, then one short session of the last: its app index exceeds the bytes left.
        let h = try Harness(modules: Self.modules)
        for n in 0..<200 {
            h.send(
                Line.start("C\(n)", 1000, app: "a\(n)"),
                Line.event("app.foreground", "C\(n)", 1001),
                Line.end("C\(n)", 1002)
            )
        }
        h.send(Line.start("L", 2000, app: "z"))
        let snapshot = h.engine.snapshot()
        XCTAssertEqual(snapshot.apps.count, 201)
        let decoded = try snapshot.binaryEncoded().withUnsafeBytes { try EngineSnapshot.decodeBinary($0) }
        XCTAssertEqual(decoded, snapshot)
    }

    func testAnAppsValuesAreBoundedAndWhatIsRefusedIsCounted() throws {
        let h = try Harness(modules: Self.modules, configuration: EngineConfiguration(maxAppValues: 2))
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.present("modal", "S", 1100, "m1", #""transition":"cover_vertical""#),
            Line.present("modal", "S", 1200, "m2", #""transition":"flip_horizontal""#),
            Line.present("modal", "S", 1300, "m3", #""transition":"cross_dissolve""#),
            Line.present("modal", "S", 1400, "m4", #""transition":"cover_vertical""#),
            Line.start("T", 2000, app: "com.example.notes"),
            Line.present("modal", "T", 2100, "n1", #""transition":"cross_dissolve""#)
        )
        let fired = h.violations(of: "probe-app-value")
        XCTAssertEqual(
            fired.map { $0.evidence["transition"] as? String },
            ["cover_vertical", "flip_horizontal", "cross_dissolve"]
        )
        XCTAssertEqual(
            fired.map(\.app),
            ["com.example.mail", "com.example.mail", "com.example.notes"],
            "the full app's third value is refused; another app is not affected"
        )
        XCTAssertEqual(h.engine.statistics.appValuesRefused, 1)
        XCTAssertLessThanOrEqual(h.engine.snapshot().apps.map(\.fired.count).max() ?? 0, 2)
    }
}
