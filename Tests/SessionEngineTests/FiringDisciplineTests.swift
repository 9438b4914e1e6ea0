import ModalwatchTesting
import SessionEngine
import XCTest

/// violations.md, "When a rule fires": the host holds back what a rule's discipline forbids.
final class FiringDisciplineTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "firing", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    private func harness(_ configuration: EngineConfiguration = .init()) throws -> Harness {
        try Harness(modules: Self.modules, configuration: configuration)
    }

    private func subjects(_ h: Harness, _ rule: String) -> [String?] {
        h.violations(of: rule).map { $0.object["subject"] as? String }
    }

    func testOncePerSubjectFiresOncePerPresentationIDAndSession() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.alert("S", 1100, "a1"),
            Line.dismiss("alert", "S", 1200, "a1", #""button":0,"via":"button""#),
            Line.alert("S", 1300, "a1"),
            Line.alert("S", 1400, "a2"),
            Line.alert("S", 1500, "a1"),
            Line.start("T", 1000),
            Line.alert("T", 1600, "a1")
        )
        XCTAssertEqual(subjects(h, "probe-subject"), ["a1", "a2", "a1"])
        XCTAssertEqual(h.violations(of: "probe-subject").map(\.session), ["S", "S", "T"])
    }

    func testOncePerWindowStaysQuietForTheReportedTimeInEventTime() throws {
        // quiet = 1000 ms (the parameter's default).
        let h = try harness()
        h.send(
            Line.start("S", 0),
            Line.alert("S", 10_000, "a1"),  // fires; quiet until 11 000
            Line.alert("S", 10_500, "a2"),
            Line.alert("S", 10_999, "a3"),
            Line.alert("S", 11_000, "a4"),  // a whole window since it fired: fires; quiet until 12 000
            Line.alert("S", 11_999, "a5"),
            Line.start("T", 10_000),
            Line.alert("T", 11_500, "b1"),  // another session: its own window
            Line.alert("S", 50_000, "a6")
        )  // arrives at once, but 38 s later in event time: fires
        XCTAssertEqual(subjects(h, "probe-window"), ["a1", "a4", "b1", "a6"])
        let quiet = h.violations(of: "probe-window").first?.evidence["quiet"] as? Int
        XCTAssertEqual(quiet, 1000)
    }

    func testOncePerWindowJudgesLateEventsAtTheLatestTime() throws {
        let h = try harness()
        h.send(
            Line.start("S", 0),
            Line.alert("S", 10_000, "a1"),  // fires; quiet until 11 000
            Line.action("S", 11_000),
            Line.alert("S", 9_000, "a2")
        )  // sent earlier, judged at 11 000: the window has passed
        XCTAssertEqual(subjects(h, "probe-window"), ["a1", "a2"])
        XCTAssertEqual(h.violations(of: "probe-window").last?.ts, 11_000)
    }

    func testOncePerWindowUsesTheQuietTimeInForce() throws {
        let configuration = EngineConfiguration(rules: ["probe-window": .init(parameters: ["quiet": 5000])])
        let h = try harness(configuration)
        h.send(
            Line.start("S", 0),
            Line.alert("S", 10_000, "a1"),
            Line.alert("S", 11_000, "a2"),
            Line.alert("S", 14_999, "a3"),
            Line.alert("S", 15_000, "a4")
        )
        XCTAssertEqual(subjects(h, "probe-window"), ["a1", "a4"])
    }

    func testOncePerSessionFiresOnceInASession() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.present("sheet", "S", 1100, "s1"),
            Line.present("sheet", "S", 1200, "s2"),
            Line.dismiss("sheet", "S", 1300, "s1"),
            Line.present("sheet", "S", 1400, "s3"),
            Line.start("T", 1450),
            Line.present("sheet", "T", 1500, "t1"),
            Line.present("sheet", "T", 1600, "t2")
        )
        XCTAssertEqual(subjects(h, "probe-session"), ["s1", "t1"])
    }

    func testOncePerKeyFiresOncePerSessionAndKey() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.task("S", 1100, "sync", "started"),
            Line.task("S", 1200, "sync", "progress"),
            Line.task("S", 1300, "upload", "started"),
            Line.task("S", 1400, "sync", "finished"),
            Line.start("T", 1450),
            Line.task("T", 1500, "sync", "started")
        )
        let fired = h.violations(of: "probe-key")
        XCTAssertEqual(fired.map(\.session), ["S", "S", "T"])
        XCTAssertEqual(fired.map(\.ts), [1100, 1300, 1500])
        XCTAssertTrue(fired.allSatisfy { $0.object["subject"] is NSNull }, "a key is not a subject")
        XCTAssertEqual(
            Set(fired.map { $0.object["fingerprint"] as? String }).count,
            3,
            "the key is part of the fingerprint"
        )
    }

    func testOncePerKeyWithoutAKeyKeysByTheSubject() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.task("S", 1100, "sync", "failed"),  // no key, subject "sync"
            Line.task("S", 1200, "sync", "failed"),
            Line.task("S", 1300, "upload", "failed")
        )
        XCTAssertEqual(subjects(h, "probe-key"), ["sync", "upload"])
    }

    func testOncePerAppValueFiresOncePerAppAndValueAcrossSessions() throws {
        let h = try harness()
        h.send(
            Line.start("S1", 1000, app: "com.example.mail"),
            Line.present("modal", "S1", 1100, "m1", #""transition":"cover_vertical""#),
            Line.present("modal", "S1", 1200, "m2", #""transition":"flip_horizontal""#),
            Line.present("modal", "S1", 1300, "m3", #""transition":"cover_vertical""#),
            Line.end("S1", 1400),
            Line.start("S2", 2000, app: "com.example.mail"),
            Line.present("modal", "S2", 2100, "m4", #""transition":"cover_vertical""#),
            Line.present("modal", "S2", 2200, "m5", #""transition":"cross_dissolve""#),
            Line.start("S3", 3000, app: "com.example.notes"),
            Line.present("modal", "S3", 3100, "n1", #""transition":"cover_vertical""#)
        )
        let fired = h.violations(of: "probe-app-value")
        XCTAssertEqual(
            fired.map { $0.evidence["transition"] as? String },
            ["cover_vertical", "flip_horizontal", "cross_dissolve", "cover_vertical"]
        )
        XCTAssertEqual(
            fired.map(\.app),
            ["com.example.mail", "com.example.mail", "com.example.mail", "com.example.notes"]
        )
        XCTAssertEqual(fired.map(\.session), ["S1", "S1", "S2", "S3"])
    }

    func testEveryTimeFiresEveryTime() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.action("S", 1100, label: "a"),
            Line.action("S", 1200, label: "a"),
            Line.action("S", 1300, label: "b")
        )
        XCTAssertEqual(h.violations(of: "probe-every").map { $0.evidence["label"] as? String }, ["a", "a", "b"])
    }

    func testSuppressedReportsAreCounted() throws {
        let h = try harness()
        h.send(Line.start("S", 1000), Line.present("sheet", "S", 1100, "s1"), Line.present("sheet", "S", 1200, "s2"))
        XCTAssertEqual(h.violations(of: "probe-session").count, 1)
        XCTAssertEqual(h.engine.statistics.reportsSuppressed, 1)
        XCTAssertEqual(h.engine.statistics.violations, UInt64(h.output.violations.count))
    }
}
