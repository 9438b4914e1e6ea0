import EventDecoding
import ModalwatchABI
import Report
import RuleHost
import XCTest

/// The aggregation, fed real decoded events (the project's decoder) and violations.
final class ReportModelTests: XCTestCase {
    private let rules = [
        ReportRule(
            id: "alert-single-button",
            module: "alert-content",
            severity: .warning,
            guideline: "Two buttons",
            summary: "An alert with one button."
        ),
        ReportRule(
            id: "modal-depth",
            module: "modality",
            severity: .error,
            guideline: "Keep modal tasks simple",
            summary: "Modal views nested too deep."
        ),
    ]

    /// Feeds each NDJSON line through the decoder into the model, then the violations that
    /// follow that line (by line index), the way `modalwatch report` interleaves them.
    private func feed(_ model: ReportModel, _ lines: [String], violations: [Int: [ReportViolation]] = [:]) {
        let decoder = EventDecoder()
        for (index, line) in lines.enumerated() {
            var ends: [ReportModel.SessionEnd] = []
            decoder.decode(Array(line.utf8)) { item in
                if case .event(let event) = item, let end = model.observe(event) { ends.append(end) }
            }
            for violation in violations[index] ?? [] { model.add(violation) }
            for end in ends { model.endSession(end) }
        }
        model.finishLiveSessions()
    }

    private let stream = [
        #"{"v":1,"type":"session.start","session":"S1","ts":1000,"app":"com.a","app_version":"1.0"}"#,
        #"{"v":1,"type":"alert.presented","session":"S1","ts":2000,"id":"a1","title":"Error","message":"Oops","buttons":[{"title":"OK"}]}"#,
        #"{"v":1,"type":"alert.dismissed","session":"S1","ts":3000,"id":"a1","button":0}"#,
        #"{"v":1,"type":"modal.presented","session":"S1","ts":4000,"id":"m1"}"#,
        #"{"v":1,"type":"modal.presented","session":"S1","ts":5000,"id":"m2","title":"Inner"}"#,
        #"{"v":1,"type":"modal.dismissed","session":"S1","ts":6000,"id":"m1"}"#,
        #"{"v":1,"type":"session.end","session":"S1","ts":7000}"#,
        #"{"v":1,"type":"session.start","session":"S2","ts":1500,"app":"com.a","app_version":"1.1"}"#,
        #"{"v":1,"type":"alert.presented","session":"S2","ts":2500,"id":"x","title":"Error","message":"Oops","buttons":[{"title":"OK"}]}"#,
        #"{"v":1,"type":"alert.presented","session":"S2","ts":2600,"id":"y","title":"Other","buttons":[{"title":"OK"},{"title":"Cancel"}]}"#,
        #"{"v":1,"type":"session.start","session":"S3","ts":1600,"app":"com.b"}"#,
    ]

    private func violation(
        _ rule: String,
        _ severity: Severity,
        _ session: String,
        _ ts: Int64,
        _ subject: String?,
        app: String = "com.a"
    ) -> ReportViolation {
        ReportViolation(
            rule: rule,
            severity: severity,
            app: app,
            session: session,
            ts: ts,
            subject: subject,
            message: "\(rule) fired"
        )
    }

    func testEventsGiveSessionsDistributionsVersionsAndTimelines() {
        let model = ReportModel(rules: rules, worstSessionCount: 2)
        feed(
            model,
            stream,
            violations: [
                1: [violation("alert-single-button", .warning, "S1", 2000, "a1")],
                4: [violation("modal-depth", .error, "S1", 5000, "m2")],
                8: [violation("alert-single-button", .warning, "S2", 2500, "x")],
            ]
        )
        XCTAssertTrue(model.hasEvents)
        XCTAssertEqual(model.events, stream.count)
        XCTAssertEqual(model.sessions, 3)
        XCTAssertEqual(model.violations, 3)
        XCTAssertEqual(model.severities.error, 1)
        XCTAssertEqual(model.severities.warning, 2)
        XCTAssertEqual(model.byRule["alert-single-button"]?.total, 2)
        XCTAssertEqual(model.byApp["com.a"]?.total, 3)
        // Deepest modal depth: S1 2, S2 0, S3 0. Alerts: S1 1, S2 2, S3 0.
        XCTAssertEqual(model.maxDepthHistogram, [2: 1, 0: 2])
        XCTAssertEqual(model.alertsHistogram, [1: 1, 2: 1, 0: 1])
        XCTAssertEqual(model.byVersion[.init(app: "com.a", version: "1.0")]?.sessions, 1)
        XCTAssertEqual(model.byVersion[.init(app: "com.a", version: "1.0")]?.violations, 2)
        XCTAssertEqual(model.byVersion[.init(app: "com.a", version: "1.1")]?.violations, 1)
        XCTAssertNil(model.byVersion.keys.first { $0.app == "com.b" }, "no app_version, no entry")

        // The same alert texts in two sessions are one entry, shown twice, broken twice.
        let top = model.presentations.top(5) { $0.key < $1.key }
        XCTAssertEqual(top.first?.count, 2)
        XCTAssertEqual(top.first?.value.title, "Error")
        XCTAssertEqual(top.first?.value.buttons, ["OK"])
        XCTAssertEqual(top.first?.value.shown, 2)
        XCTAssertEqual(top.first?.value.rules, ["alert-single-button": 2])

        // S1 is worst: 2 violations; its stack had the alert at level 0, m1 at 0, m2 at 1.
        let worst = model.worstSessions
        XCTAssertEqual(worst.map(\.id), ["S1", "S2"])
        let s1 = worst[0]
        XCTAssertEqual(s1.marks.map(\.rule), ["alert-single-button", "modal-depth"])
        let spans = s1.spans.sorted { $0.start < $1.start }
        XCTAssertEqual(spans.map(\.id), ["a1", "m1", "m2"])
        XCTAssertEqual(spans.map(\.level), [0, 0, 1])
        XCTAssertEqual(spans.map(\.end), [3000, 6000, 6000], "dismissing m1 dismisses m2 above it")
        XCTAssertEqual(s1.start, 1000)
        XCTAssertEqual(s1.end, 7000)
        // S2 never ended: its open alerts end at its last event and are marked open.
        XCTAssertTrue(worst[1].spans.allSatisfy(\.open))
    }

    func testFilterByAppAndTime() {
        let model = ReportModel(rules: rules, filter: ReportFilter(app: "com.a", since: 1500, until: 5000))
        feed(
            model,
            stream,
            violations: [
                1: [violation("alert-single-button", .warning, "S1", 2000, "a1")],
                4: [violation("modal-depth", .error, "S1", 5000, "m2")],
            ]
        )
        XCTAssertEqual(model.violations, 1, "ts 5000 is outside [1500, 5000)")
        XCTAssertEqual(model.sessions, 2, "S3 is another app's")
        // S1: 2000, 3000, 4000 inside; S2: all four inside.
        XCTAssertEqual(model.events, 3 + 3)
    }

    func testViolationsOnlyCountSessionsAndPresentationsBySubject() {
        let model = ReportModel(rules: rules, worstSessionCount: 1)
        model.add(violation("alert-single-button", .warning, "S9", 10, "a1"))
        model.add(violation("modal-depth", .error, "S9", 20, "a1"))
        model.add(violation("modal-depth", .error, "S8", 30, nil, app: "com.b"))
        XCTAssertFalse(model.hasEvents)
        XCTAssertEqual(model.sessions, 2)
        XCTAssertEqual(model.events, 0)
        XCTAssertEqual(model.worstSessions.map(\.id), ["S9"])
        XCTAssertEqual(model.worstSessions[0].marks.count, 2)
        let top = model.presentations.top(5) { $0.key < $1.key }
        XCTAssertEqual(top.count, 1)
        XCTAssertEqual(top[0].value.session, "S9")
        XCTAssertEqual(top[0].value.messages, ["alert-single-button fired", "modal-depth fired"])
    }

    func testAPresentationsKindComesFromTheViolationElseItsRulesMetadata() {
        let rules = [
            ReportRule(
                id: "alert-single-button",
                module: "alert-content",
                severity: .warning,
                kind: .alert,
                guideline: "g",
                summary: "s"
            ),
            ReportRule(id: "modal-frequency", module: "overuse", severity: .warning, guideline: "g", summary: "s"),
        ]
        let model = ReportModel(rules: rules)
        model.add(violation("modal-frequency", .warning, "S1", 10, "f1"))
        model.add(violation("modal-frequency", .warning, "S1", 20, "f2"))
        model.add(violation("alert-single-button", .warning, "S1", 30, "f2"))
        var told = violation("modal-frequency", .warning, "S1", 40, "f3")
        told.subjectKind = .sheet
        model.add(told)
        let kinds = Dictionary(
            model.presentations.all.map { ($0.value.id, $0.value.kind) },
            uniquingKeysWith: { a, _ in a }
        )
        XCTAssertEqual(kinds["f1"], .some(nil), "a rule of several kinds says none")
        XCTAssertEqual(kinds["f2"], .alert, "a later rule of one kind says it")
        XCTAssertEqual(kinds["f3"], .sheet, "the violation's own events say it")
    }

    func testTopCounterIsExactUnderCapacityAndKeepsTheLargest() {
        var counter = TopCounter<Int, Void>(capacity: 3)
        for key in 0..<6 { for _ in 0...key { counter.add(key, make: {}) } }
        XCTAssertEqual(counter.droppedMax, 0, "6 keys fit in twice the capacity")
        counter.add(6, make: {})
        XCTAssertEqual(counter.count, 3)
        XCTAssertEqual(counter.top(3) { $0.key < $1.key }.map(\.key), [5, 4, 3])
        XCTAssertEqual(counter.droppedMax, 3, "keys 2 (3), 1, 0 and 6 went")
    }

    func testTimeBucketsChooseTheirWidthBySpanAndStayBounded() {
        var buckets = TimeBuckets(maxBuckets: 100)
        buckets.add(ts: 60_000 * 10 + 5, severity: .error)
        buckets.add(ts: 60_000 * 12, severity: .info)
        var series = buckets.series()
        XCTAssertEqual(series.width, .minute)
        XCTAssertEqual(series.buckets.map(\.counts.total), [1, 0, 1], "empty minutes are drawn too")
        buckets.add(ts: 3_600_000 * 30, severity: .warning)
        series = buckets.series()
        XCTAssertEqual(series.width, .hour)
        XCTAssertEqual(series.buckets.reduce(0) { $0 + $1.counts.total }, 3)
        for minute in 0..<500 { buckets.add(ts: Int64(minute) * 60_000, severity: .info) }
        XCTAssertEqual(buckets.width, .hour, "past 100 minute buckets they merge into hours")
        XCTAssertEqual(buckets.series().buckets.reduce(0) { $0 + $1.counts.total }, 503)
    }

    func testViolationJSONFields() {
        let json =
            #"{"v":1,"rule":"r","message":"say \"hi\" \u00e9\ud83d\ude00, \"subject\":\"no\"","subject":"a\/1","evidence":{"subject":"x"}}"#
        Array(json.utf8).withUnsafeBytes { bytes in
            XCTAssertEqual(ViolationJSON.string("subject", in: bytes), "a/1")
            XCTAssertEqual(ViolationJSON.string("message", in: bytes), "say \"hi\" é😀, \"subject\":\"no\"")
            XCTAssertNil(ViolationJSON.string("title", in: bytes))
        }
        Array(#"{"v":1,"subject":null}"#.utf8).withUnsafeBytes { XCTAssertNil(ViolationJSON.string("subject", in: $0)) }
    }

    // MARK: times from any history

    private static let extremes: [Int64] = [
        .min, .min + 1, -86_400_001, -1, 0, 1, 1_732_290_000_000,
        1_000_000_000_000_000, 253_402_300_799_999, 253_402_300_800_000, .max - 1, .max,
    ]

    /// A history may hold any time an older daemon stored: every pair of them gives a bounded
    /// series (at most `maxSeriesBuckets` buckets, every violation in one), a page, no trap.
    func testTimeBucketsAreBoundedWhateverTheTimes() {
        for a in Self.extremes {
            for b in Self.extremes {
                var buckets = TimeBuckets(maxBuckets: 50, maxSeriesBuckets: 40)
                buckets.add(ts: a, severity: .error)
                buckets.add(ts: b, severity: .info)
                buckets.add(ts: 1_732_290_000_000, severity: .warning)
                let series = buckets.series()
                XCTAssertLessThanOrEqual(series.buckets.count, 40, "\(a), \(b)")
                XCTAssertEqual(series.buckets.reduce(0) { $0 + $1.counts.total }, 3, "\(a), \(b)")
                XCTAssertGreaterThanOrEqual(buckets.first, 0)
                XCTAssertLessThanOrEqual(buckets.last, 253_402_300_799_999)
            }
        }
    }

    /// Held buckets merge past `maxBuckets` however far apart the times are: wider than a day too.
    func testHeldBucketsWidenPastADay() {
        var buckets = TimeBuckets(maxBuckets: 10, maxSeriesBuckets: 10)
        for n in 0..<1000 { buckets.add(ts: Int64(n) * 86_400_000 * 97, severity: .info) }
        XCTAssertGreaterThan(buckets.width.rawValue, TimeBuckets.Width.day.rawValue)
        XCTAssertTrue(buckets.width.name.hasSuffix(" days"), buckets.width.name)
        let series = buckets.series()
        XCTAssertLessThanOrEqual(series.buckets.count, 10)
        XCTAssertEqual(series.buckets.reduce(0) { $0 + $1.counts.total }, 1000)
    }

    func testAModelAndItsPageTakeAnyStoredTime() {
        let model = ReportModel(rules: rules)
        for (n, ts) in Self.extremes.enumerated() {
            model.add(violation("alert-single-button", .warning, "S\(n % 3)", ts, "a\(n)"))
        }
        XCTAssertEqual(model.violations, Self.extremes.count)
        XCTAssertLessThanOrEqual(model.time.series().buckets.count, model.time.maxSeriesBuckets)
        let source = ReportSource(kind: .history, names: ["h"], generated: .max)
        let html = HTMLReport(model: model, source: source).render()
        XCTAssertTrue(html.contains("9999-12-31"), "the far-future times at the end of the accepted range")
        XCTAssertTrue(html.contains("1970-01-01"), "the times before 1970 at its start")
    }
}
