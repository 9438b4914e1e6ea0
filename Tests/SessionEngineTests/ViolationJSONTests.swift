import Foundation
import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// violations.md, "A violation": every field, the topic, fingerprints, ids, and determinism.
final class ViolationJSONTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "violation-json", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    private func harness(_ configuration: EngineConfiguration = .init()) throws -> Harness {
        try Harness(modules: Self.modules, configuration: configuration)
    }

    private static let fields: Set<String> = [
        "v", "id", "rule", "rev", "module", "severity", "edition", "app", "session", "ts", "observed",
        "subject", "message", "guideline", "evidence", "events", "fingerprint", "suggestion",
    ]

    private func isHex(_ text: String?, count: Int) -> Bool {
        guard let text else { return false }
        return text.utf8.count == count
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    func testEveryFieldOfAViolation() throws {
        let h = try harness()
        h.observed = 1_732_290_009_999
        h.send(
            Line.start("S-1", 1_732_290_000_000, app: "com.example.mail", #""seq":1"#),
            Line.alert("S-1", 1_732_290_009_000, "a1", #""seq":2,"title":"Error""#)
        )
        XCTAssertEqual(h.output.problems, [])
        let violation = try XCTUnwrap(h.violations(of: "probe-subject").first)
        let object = violation.object
        XCTAssertEqual(Set(object.keys), Self.fields)
        XCTAssertEqual(object["v"] as? Int, 1)
        XCTAssertTrue(isHex(object["id"] as? String, count: 32), "\(object["id"] ?? "nil")")
        XCTAssertEqual(object["rule"] as? String, "probe-subject")
        XCTAssertTrue(object["suggestion"] is NSNull, "a report without a suggestion gives null")
        XCTAssertEqual(object["rev"] as? Int, 2)
        XCTAssertEqual(object["module"] as? String, "probe")
        XCTAssertEqual(object["severity"] as? String, "warning")
        XCTAssertEqual(object["edition"] as? String, "current")
        XCTAssertEqual(object["app"] as? String, "com.example.mail")
        XCTAssertEqual(object["session"] as? String, "S-1")
        XCTAssertEqual(object["ts"] as? Int, 1_732_290_009_000)
        XCTAssertEqual(object["observed"] as? Int, 1_732_290_009_999)
        XCTAssertEqual(object["subject"] as? String, "a1")
        XCTAssertEqual(object["message"] as? String, "alert presented")
        XCTAssertEqual(object["guideline"] as? String, "Once per alert")
        XCTAssertEqual((object["evidence"] as? [String: Any])?.count, 0, "a NULL evidence is {}")
        let events = try XCTUnwrap(object["events"] as? [[String: Any]])
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(Set(events[0].keys), ["type", "ts", "id", "seq"])
        XCTAssertEqual(events[0]["type"] as? String, "alert.presented")
        XCTAssertEqual(events[0]["ts"] as? Int, 1_732_290_009_000)
        XCTAssertEqual(events[0]["id"] as? String, "a1")
        XCTAssertEqual(events[0]["seq"] as? Int, 2)
        XCTAssertTrue(isHex(object["fingerprint"] as? String, count: 16), "\(object["fingerprint"] ?? "nil")")

        XCTAssertEqual(violation.topic, "violation/com.example.mail/probe-subject")
        XCTAssertEqual(violation.rule, "probe-subject")
        XCTAssertEqual(violation.module, "probe")
        XCTAssertEqual(violation.severity, .warning)
        XCTAssertEqual(violation.app, "com.example.mail")
        XCTAssertEqual(violation.session, "S-1")
        XCTAssertEqual(violation.ts, 1_732_290_009_000)
        XCTAssertEqual(violation.observed, 1_732_290_009_999)
    }

    func testEveryViolationOfEveryProbeRuleHasEveryField() throws {
        let h = try harness(EngineConfiguration(defaultEdition: .edition2009))
        h.send(
            Line.start("S", 1000),
            Line.alert("S", 1100, "a1"),
            Line.alert("S", 1200, "a2"),
            Line.alert("S", 1300, "a3"),
            Line.alert("S", 1400, "a4"),
            Line.present("sheet", "S", 1500, "s1"),
            Line.task("S", 1600, "t", "started"),
            Line.present("modal", "S", 1700, "m1", #""transition":"custom""#),
            Line.action("S", 1800, label: "x"),
            Line.event("app.background", "S", 1900),
            Line.event("app.foreground", "S", 2000),
            Line.present("popover", "S", 2100, "p1")
        )
        XCTAssertEqual(h.output.problems, [])
        let rules = Set(h.output.violations.map(\.rule))
        XCTAssertEqual(rules, Set(h.catalog.rules.map(\.id)), "every probe rule fired")
        for violation in h.output.violations {
            XCTAssertEqual(Set(violation.object.keys), Self.fields, violation.rule)
            XCTAssertEqual(violation.object["edition"] as? String, "2009")
            XCTAssertEqual(violation.topic, "violation/com.example.app/\(violation.rule)")
            let rule = try XCTUnwrap(h.catalog.rule(id: violation.rule))
            XCTAssertEqual(violation.object["rev"] as? Int, rule.rev)
            XCTAssertEqual(violation.object["severity"] as? String, rule.severity.name)
            XCTAssertEqual(violation.object["guideline"] as? String, rule.guideline)
        }
    }

    func testSessionAndAppAreEscapedInTheJSONAndRawInTheTopic() throws {
        let h = try harness()
        h.send(
            Line.start(#"q\"\\x"#, 1000, app: "com.example.\u{00FC}mlaut"),
            Line.alert(#"q\"\\x"#, 1100, #"a\"1"#)
        )
        XCTAssertEqual(h.output.problems, [])
        let violation = try XCTUnwrap(h.violations(of: "probe-subject").first)
        XCTAssertEqual(violation.object["session"] as? String, #"q"\x"#)
        XCTAssertEqual(violation.object["app"] as? String, "com.example.\u{00FC}mlaut")
        XCTAssertEqual(violation.object["subject"] as? String, #"a"1"#)
        XCTAssertEqual(violation.session, #"q"\x"#)
        XCTAssertEqual(violation.topic, "violation/com.example.\u{00FC}mlaut/probe-subject")
        let view = try h.lastView()
        XCTAssertEqual(view.string("session"), #"q"\x"#)
        XCTAssertEqual(view.stackIDs, [#"a"1"#])
    }

    func testSubjectIsNullWhenTheRuleGivesNone() throws {
        let h = try harness()
        h.send(Line.start("S", 900), Line.action("S", 1000, label: "x"))
        let violation = try XCTUnwrap(h.violations(of: "probe-every").first)
        XCTAssertTrue(violation.object["subject"] is NSNull)
        XCTAssertTrue(violation.json.contains(#""subject":null"#))
    }

    func testEvidenceIsTheRulesObjectOrEmptyWhenInvalid() throws {
        let h = try harness()
        h.send(
            Line.start("S", 900),
            Line.action("S", 1000, label: "escapes"),
            Line.action("S", 1100, label: "bad-evidence"),
            Line.action("S", 1200, label: "array-evidence"),
            Line.action("S", 1300, label: "no-evidence")
        )
        let violations = h.violations(of: "probe-every")
        XCTAssertEqual(violations.count, 4, "a bad evidence does not stop the violation")
        let nested = violations[0].evidence["nested"] as? [String: Any]
        let list = try XCTUnwrap(nested?["list"] as? [Any])
        XCTAssertEqual(list.count, 5)
        XCTAssertEqual(list[1] as? Double, 2.5)
        XCTAssertTrue(list[3] is NSNull)
        for violation in violations[1...] {
            XCTAssertEqual(violation.evidence.count, 0)
            XCTAssertTrue(violation.json.contains(#""evidence":{}"#), violation.json)
        }
        XCTAssertEqual(h.engine.statistics.badEvidence, 2, "invalid JSON and a non-object are counted; NULL is not")
    }

    func testMessageFallsBackToTheSummaryAndTextIsEscaped() throws {
        let h = try harness()
        h.send(
            Line.start("S", 900),
            Line.action("S", 1000, label: "empty-message"),
            Line.action("S", 1100, label: "null-message"),
            Line.action("S", 1200, label: "escapes")
        )
        let violations = h.violations(of: "probe-every")
        XCTAssertEqual(violations[0].object["message"] as? String, "reports every action as its label says")
        XCTAssertEqual(violations[1].object["message"] as? String, "reports every action as its label says")
        XCTAssertEqual(violations[2].object["message"] as? String, "he said \"hi\"\n\ttab \\ back \u{201C}q\u{201D}")
        XCTAssertEqual(violations[2].object["subject"] as? String, "s\"1\\")
    }

    func testEventsListTheRulesEarlierEventsThenTheCurrentOne() throws {
        let h = try harness()
        h.send(Line.start("S", 1000), Line.action("S", 7000, label: "events", #""seq":9"#))
        let violation = try XCTUnwrap(h.violations(of: "probe-every").first)
        let events = try XCTUnwrap(violation.object["events"] as? [[String: Any]])
        XCTAssertEqual(events.count, 3)
        XCTAssertEqual(Set(events[0].keys), ["type", "ts", "id", "seq"])
        XCTAssertEqual(events[0]["type"] as? String, "alert.presented")
        XCTAssertEqual(events[0]["ts"] as? Int, 5)
        XCTAssertEqual(events[0]["id"] as? String, "a1")
        XCTAssertEqual(events[0]["seq"] as? Int, 3)
        XCTAssertEqual(Set(events[1].keys), ["type", "ts"], "no id and no seq when unknown")
        XCTAssertEqual(events[1]["type"] as? String, "user.action")
        XCTAssertEqual(events[1]["ts"] as? Int, 6)
        XCTAssertEqual(Set(events[2].keys), ["type", "ts", "seq"], "the current event last; a user.action has no id")
        XCTAssertEqual(events[2]["ts"] as? Int, 7000)
        XCTAssertEqual(events[2]["seq"] as? Int, 9)
    }

    func testFingerprintIsStableForRuleAppSessionAndSubject() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.action("S", 1100, label: "subject:a1"),
            Line.action("S", 1200, label: "subject:a1"),
            Line.action("S", 1300, label: "subject:a2"),
            Line.start("T", 1000, app: "com.example.mail"),
            Line.action("T", 1400, label: "subject:a1"),
            Line.start("U", 1000, app: "com.example.notes"),
            Line.action("U", 1500, label: "subject:a1")
        )
        let prints = h.violations(of: "probe-every").map { $0.object["fingerprint"] as? String }
        let ids = h.violations(of: "probe-every").map { $0.object["id"] as? String }
        XCTAssertEqual(prints.count, 5)
        XCTAssertEqual(prints[0], prints[1], "same rule, app, session and subject")
        XCTAssertNotEqual(ids[0], ids[1], "but two violations")
        XCTAssertNotEqual(prints[0], prints[2], "another subject")
        XCTAssertNotEqual(prints[0], prints[3], "another session")
        XCTAssertNotEqual(prints[0], prints[4], "another app")
        XCTAssertEqual(Set(prints.dropFirst()).count, 4)

        // Another rule on the same session and subject.
        h.send(Line.alert("S", 1600, "a1"))
        let other = try XCTUnwrap(h.violations(of: "probe-subject").first?.object["fingerprint"] as? String)
        XCTAssertFalse(prints.contains(other), "the rule is part of the fingerprint")
    }

    func testTheSameStreamGivesByteIdenticalViolationsApartFromObserved() throws {
        let stream = [
            Line.start("S", 1_732_290_000_000, app: "com.example.mail", #""seq":1,"device":"pad""#),
            Line.action("S", 1_732_290_000_100, label: "escapes", #""seq":2"#),
            Line.alert("S", 1_732_290_000_200, "a1", #""seq":3,"buttons":[{"title":"OK"}]"#),
            Line.alert("S", 1_732_290_000_300, "a2", #""seq":5"#),
            Line.present("modal", "S", 1_732_290_000_400, "m1", #""seq":6,"transition":"partial_curl""#),
            Line.event("nav.push", "S", 1_732_290_000_500, #""seq":7"#),
            Line.task("S", 1_732_290_000_600, "sync", "started"),
            Line.alert("S", 1_732_290_000_700, "a3"),
            Line.alert("S", 1_732_290_000_650, "a4"),
            Line.action("S", 1_732_290_000_800, label: "events"),
            Line.event("app.foreground", "S", 1_732_290_000_900),
            Line.present("popover", "S", 1_732_290_001_000, "p1"),
            Line.dismiss("modal", "S", 1_732_290_001_100, "m1", #""unsaved_changes":true"#),
            Line.action("T", 1_732_290_001_200, label: "subject:x", #""app":"com.example.mail""#),
        ]
        let first = try harness()
        let second = try harness()
        first.observed = 1
        second.observed = 987_654_321
        first.send(stream)
        second.sendBatch(stream)
        XCTAssertGreaterThan(first.output.violations.count, 20)
        XCTAssertEqual(
            first.output.violations.map(\.jsonWithoutObserved),
            second.output.violations.map(\.jsonWithoutObserved)
        )
        XCTAssertEqual(first.output.violations.map(\.topic), second.output.violations.map(\.topic))
        XCTAssertNotEqual(first.output.violations.first?.json, second.output.violations.first?.json, "observed differs")
    }

    func testSeverityOverridesApplyGloballyAndPerApp() throws {
        let configuration = EngineConfiguration(
            rules: ["probe-every": .init(severity: .error)],
            apps: ["com.example.quiet": .init(rules: ["probe-every": .init(severity: .info)])]
        )
        let h = try harness(configuration)
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.action("S", 1100, label: "x"),
            Line.alert("S", 1200, "a1"),
            Line.start("Q", 1000, app: "com.example.quiet"),
            Line.action("Q", 1300, label: "x")
        )
        let every = h.violations(of: "probe-every")
        XCTAssertEqual(every.map { $0.object["severity"] as? String }, ["error", "info"])
        XCTAssertEqual(every.map(\.severity), [.error, .info])
        XCTAssertEqual(
            h.violations(of: "probe-subject").first?.object["severity"] as? String,
            "warning",
            "other rules keep their own"
        )
    }

    /// violations.md: `id` is the unique id of this violation. Two firings of an every-time rule on
    /// events with the same `ts` (or two reports in one call) must not share it.
    func testKnownBug_ViolationIDsAreUniqueEvenAtTheSameEventTime() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.action("S", 1100, label: "same"),
            Line.action("S", 1100, label: "same"),
            Line.action("S", 1200, label: "twice")
        )
        let ids = h.violations(of: "probe-every").map { $0.object["id"] as? String }
        XCTAssertEqual(ids.count, 4)
        XCTAssertEqual(Set(ids).count, 4, "violation ids must be unique: \(ids)")
    }
}
