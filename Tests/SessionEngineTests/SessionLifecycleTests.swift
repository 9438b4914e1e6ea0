import ModalwatchTesting
import XCTest

@testable import SessionEngine

/// Sessions: explicit and implicit starts, the app a session belongs to, its end, the idle timeout
/// (by event time), and the bound on live sessions.
final class SessionLifecycleTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "lifecycle", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    private func harness(_ configuration: EngineConfiguration = .init()) throws -> Harness {
        try Harness(modules: Self.modules, configuration: configuration)
    }

    func testSessionStartSetsTheAppAndTheSessionViewFromTheFirstEvent() throws {
        let h = try harness()
        h.send(Line.start("S", 5000, app: "com.example.mail"), Line.action("S", 6000))
        let views = h.views
        XCTAssertEqual(views.count, 2)
        XCTAssertEqual(views.map { $0.string("app") }, ["com.example.mail", "com.example.mail"])
        XCTAssertEqual(views.map { $0.string("session") }, ["S", "S"])
        XCTAssertEqual(views.map { $0.int("started_ts") }, [5000, 5000])
        XCTAssertEqual(views.map { $0.int("last_ts") }, [5000, 6000])
        XCTAssertEqual(views.map { $0.int("events") }, [1, 2])
        XCTAssertTrue(views[0].isNull("previous_ts"), "no event before the first")
        XCTAssertEqual(views[1].int("previous_ts"), 5000)
        XCTAssertEqual(views.map { $0.int("foreground") }, [1, 1])
        XCTAssertEqual(h.engine.liveSessions, 1)
        XCTAssertEqual(
            h.violations(of: "probe-view").map(\.topic),
            Array(repeating: "violation/com.example.mail/probe-view", count: 2)
        )
    }

    func testAnEventOfAnUnknownSessionWithoutAppIsRefusedAsUnknownSession() throws {
        let h = try harness()
        h.send(Line.action("X", 1000), Line.alert("X", 1100, "a1"))
        XCTAssertEqual(h.views.count, 0, "never judged under an app it did not name")
        XCTAssertEqual(h.violations(of: "probe-view").count, 0)
        let refused = h.output.diagnostics(.unknownSession)
        XCTAssertEqual(refused.map(\.session), ["X", "X"])
        XCTAssertEqual(refused.map(\.app), [nil, nil])
        XCTAssertTrue(refused.first?.detail.contains("user.action") ?? false, refused.first?.detail ?? "")
        XCTAssertEqual(h.engine.liveSessions, 0)
        XCTAssertEqual(h.engine.statistics.sessionsStarted, 0)
        XCTAssertEqual(h.engine.statistics.eventsOfUnknownSessions, 2)
        XCTAssertEqual(h.pipeline.rejectedByReason["unknown_session"], 2)
        XCTAssertEqual(h.pipeline.eventsRejected, 2)
    }

    func testAnEventOfAnUnknownSessionThatNamesItsAppStartsItUnderThatApp() throws {
        let h = try harness()
        h.send(
            Line.action("X", 1000, #""app":"com.example.late""#),
            Line.alert("X", 1100, "a1")
        )
        let views = h.views
        XCTAssertEqual(views.map { $0.string("app") }, ["com.example.late", "com.example.late"])
        XCTAssertEqual(views.map { $0.string("event_app") }, ["com.example.late", nil])
        XCTAssertEqual(views.map { $0.int("device") }, [0, 0], "phone unless session.start said otherwise")
        XCTAssertEqual(views.map { $0.int("size_class") }, [0, 0])
        XCTAssertEqual(views.first?.int("started_ts"), 1000)
        let violation = try XCTUnwrap(h.violations(of: "probe-view").first)
        XCTAssertEqual(violation.topic, "violation/com.example.late/probe-view")
        XCTAssertEqual(h.engine.liveSessionsByApp(), ["com.example.late": 1])
        XCTAssertEqual(h.engine.statistics.sessionsStarted, 1)
        XCTAssertEqual(h.output.diagnostics.count, 0)
    }

    func testASnapshotsSessionWithoutAppIsNotRestored() throws {
        let h = try harness()
        h.send(Line.start("S", 1000, app: "com.example.mail"))
        var snapshot = h.engine.snapshot()
        var unnamed = try XCTUnwrap(snapshot.sessions.first)
        unnamed.id = Array("U".utf8)
        unnamed.app = "-"
        snapshot.sessions.append(unnamed)
        let fresh = try harness()
        XCTAssertEqual(fresh.engine.restore(snapshot), 1)
        XCTAssertNotNil(fresh.engine.sessionSnapshot(id: "S"))
        XCTAssertNil(fresh.engine.sessionSnapshot(id: "U"))
    }

    func testAnEventNamingAnotherAppIsRejectedAsBadFieldAndDropped() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.alert("S", 1100, "a1", #""app":"com.example.other","seq":7"#),
            Line.alert("S", 1200, "a2", #""app":"com.example.mail""#)
        )
        XCTAssertEqual(h.views.count, 2, "the mismatched event is not judged")
        XCTAssertEqual(try h.lastView().stackIDs, ["a2"], "nor applied to the stack")
        let diagnostics = h.output.diagnostics(.badField)
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(diagnostics.first?.app, "com.example.mail")
        XCTAssertEqual(diagnostics.first?.session, "S")
        XCTAssertTrue(diagnostics.first?.detail.contains("com.example.other") ?? false)
        XCTAssertEqual(h.engine.statistics.eventsRejected, 1)
        XCTAssertEqual(h.pipeline.eventsRejected, 1, "the pipeline counts the engine's rejections too")
        // The dropped event's seq was not taken: seq 7 is still free.
        h.send(Line.action("S", 1300, #""seq":7"#))
        XCTAssertEqual(h.views.count, 3)
        XCTAssertEqual(h.output.diagnostics(.duplicate).count, 0)
    }

    func testSessionEndReleasesTheSession() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.present("modal", "S", 1100, "m1"),
            Line.end("S", 1200)
        )
        let end = try h.lastView()
        XCTAssertEqual(end.string("type"), "session.end", "rules see the session.end itself")
        XCTAssertEqual(end.stackIDs, ["m1"])
        XCTAssertEqual(h.engine.liveSessions, 0)
        XCTAssertNil(h.engine.sessionSnapshot(id: "S"))
        XCTAssertEqual(h.engine.statistics.sessionsEnded, 1)

        // The same id again, naming its app: a new, implicit session with nothing of the old one.
        h.send(Line.action("S", 1300, #""app":"com.example.mail""#))
        let again = try h.lastView()
        XCTAssertEqual(again.stackIDs, [])
        XCTAssertEqual(again.int("events"), 1)
        XCTAssertEqual(again.int("started_ts"), 1300)
        XCTAssertEqual(again.string("app"), "com.example.mail")
        XCTAssertEqual(h.engine.liveSessions, 1)
    }

    func testSessionStartUnderALiveIDStartsAfresh() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.present("sheet", "S", 1100, "s1"),
            Line.start("S", 2000, app: "com.example.mail"),
            Line.present("sheet", "S", 2100, "s2")
        )
        let last = try h.lastView()
        XCTAssertEqual(last.stackIDs, ["s2"])
        XCTAssertEqual(last.string("app"), "com.example.mail")
        XCTAssertEqual(last.int("events"), 2)
        XCTAssertEqual(last.int("started_ts"), 2000)
        XCTAssertEqual(h.violations(of: "probe-session").count, 2, "a new launch is a new session for once_per_session")
        XCTAssertEqual(h.engine.liveSessions, 1)
        XCTAssertEqual(h.engine.liveSessionsByApp(), ["com.example.mail": 1])
    }

    func testASessionStartOfAnotherAppUnderALiveIDIsRefusedNotATakeOver() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.present("sheet", "S", 1100, "s1"),
            Line.start("S", 2000, app: "com.example.notes"),
            Line.present("sheet", "S", 2100, "s2", #""app":"com.example.mail""#)
        )
        let last = try h.lastView()
        XCTAssertEqual(last.stackIDs, ["s1", "s2"], "the first app's session goes on")
        XCTAssertEqual(last.string("app"), "com.example.mail")
        XCTAssertEqual(h.engine.statistics.eventsRejected, 1)
        let refused = h.output.diagnostics(.badField)
        XCTAssertEqual(refused.count, 1)
        XCTAssertTrue(refused.first?.detail.contains("com.example.notes") ?? false, refused.first?.detail ?? "")
        XCTAssertEqual(h.engine.liveSessionsByApp(), ["com.example.mail": 1])
    }

    func testAnEventAfterTheIdleTimeoutStartsTheSessionAfreshByEventTime() throws {
        let h = try harness(EngineConfiguration(sessionIdleTimeoutMs: 60_000))
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.present("modal", "S", 2000, "m1"),
            Line.present("sheet", "S", 3000, "s1"),
            Line.action("S", 63_000),  // exactly the timeout after the last event: same session
            Line.action("S", 123_001)
        )  // past it: afresh
        let views = h.views
        XCTAssertEqual(views[3].stackIDs, ["m1", "s1"])
        XCTAssertEqual(views[3].int("events"), 4)
        let fresh = views[4]
        XCTAssertEqual(fresh.stackIDs, [])
        XCTAssertEqual(fresh.int("events"), 1)
        XCTAssertEqual(fresh.int("started_ts"), 123_001)
        XCTAssertTrue(fresh.isNull("previous_ts"))
        XCTAssertTrue(fresh.isNull("last_user_action_ts"), "the restarted session has seen no action")
        XCTAssertEqual(fresh.string("app"), "com.example.mail", "an idle restart keeps the app")
        XCTAssertEqual(h.engine.statistics.sessionsStarted, 2)
        XCTAssertEqual(h.engine.liveSessions, 1)
        // Firing state is per session: once_per_session fires again.
        h.send(Line.present("sheet", "S", 123_100, "s2"))
        XCTAssertEqual(h.violations(of: "probe-session").count, 2)
    }

    func testReleaseIdleSessionsReleasesByArrivalTime() throws {
        let h = try harness(EngineConfiguration(sessionIdleTimeoutMs: 1000))
        let t0 = h.observed
        h.observed = t0
        h.send(Line.start("A", 0))
        h.observed = t0 + 500
        h.send(Line.start("B", 500))
        h.observed = t0 + 1200
        h.send(Line.start("C", 1200))
        XCTAssertEqual(h.engine.releaseIdleSessions(now: t0 + 1200), 1, "A arrived 1200 ms ago (> 1000); B 700 ms ago")
        XCTAssertEqual(h.engine.liveSessions, 2)
        XCTAssertNil(h.engine.sessionSnapshot(id: "A"))
        h.observed = t0 + 5000
        h.send(Line.action("C", 5000))
        XCTAssertEqual(h.engine.releaseIdleSessions(now: t0 + 5000, limit: 0), 0, "the limit holds")
        XCTAssertEqual(h.engine.releaseIdleSessions(now: t0 + 5000), 1)
        XCTAssertEqual(h.engine.liveSessions, 1)
        XCTAssertNotNil(h.engine.sessionSnapshot(id: "C"))
        XCTAssertEqual(h.engine.statistics.sessionsExpired, 2)
        XCTAssertEqual(h.engine.releaseIdleSessions(now: t0 + 5000), 0)
    }

    func testOneDevicesClockAheadReleasesNoOtherSession() throws {
        let h = try harness(EngineConfiguration(sessionIdleTimeoutMs: 1000))
        h.send(Line.start("A", 0), Line.start("FAST", 7_200_000))
        XCTAssertEqual(h.engine.releaseIdleSessions(now: h.observed), 0, "both arrived just now")
        XCTAssertEqual(h.engine.liveSessions, 2)
    }

    func testMaxSessionsEvictsTheLeastRecentlyActive() throws {
        let h = try harness(EngineConfiguration(maxSessions: 2))
        h.send(
            Line.start("A", 1000, app: "com.example.a"),
            Line.start("B", 1100, app: "com.example.b"),
            Line.action("A", 1200),  // A is now more recent than B
            Line.start("C", 1300, app: "com.example.c")
        )
        XCTAssertEqual(h.engine.liveSessions, 2)
        let evicted = h.output.diagnostics(.sessionEvicted)
        XCTAssertEqual(evicted.count, 1)
        XCTAssertEqual(evicted.first?.session, "B")
        XCTAssertEqual(evicted.first?.app, "com.example.b")
        XCTAssertNil(h.engine.sessionSnapshot(id: "B"))
        XCTAssertNotNil(h.engine.sessionSnapshot(id: "A"))
        XCTAssertEqual(h.engine.statistics.sessionsEvicted, 1)

        // B comes back, naming its app: a new implicit session, and A (now least recent) goes.
        h.send(Line.action("B", 1400, #""app":"com.example.b""#))
        XCTAssertEqual(try h.lastView().int("events"), 1)
        XCTAssertEqual(h.output.diagnostics(.sessionEvicted).last?.session, "A")
        XCTAssertEqual(Set(h.engine.sessionSnapshots().map(\.id)), ["B", "C"])
    }

    func testManySessionsStayFindableThroughEndsAndEvictions() throws {
        // A model of the live set, least recently active first, against the engine's session table.
        let limit = 1500
        let h = try harness(EngineConfiguration(maxSessions: limit))
        var model: [String] = []
        var evicted = 0
        for i in 0..<4000 {
            let id = "S\(i)"
            h.send(Line.start(id, Int64(1000 + i)))
            if model.count >= limit {
                model.removeFirst()
                evicted += 1
            }
            model.append(id)
            if i % 3 == 0 {
                h.send(Line.end(id, Int64(1000 + i)))
                model.removeLast()
            }
            if i % 7 == 0, let old = model.dropLast(20).last {
                h.send(Line.action(old, Int64(1000 + i)))  // an older session becomes recent
                model.removeAll { $0 == old }
                model.append(old)
            }
        }
        XCTAssertEqual(h.engine.liveSessions, model.count)
        XCTAssertEqual(h.engine.sessionSnapshots().map(\.id), model.reversed(), "most recently active first")
        for i in stride(from: 0, to: 4000, by: 97) {
            let id = "S\(i)"
            XCTAssertEqual(h.engine.sessionSnapshot(id: id)?.id, model.contains(id) ? id : nil)
        }
        XCTAssertEqual(h.engine.statistics.sessionsEnded, 1334)
        XCTAssertEqual(h.engine.statistics.sessionsEvicted, UInt64(evicted))
        XCTAssertEqual(h.output.diagnostics(.sessionEvicted).count, evicted)
        XCTAssertGreaterThan(evicted, 1000)
    }

    func testLastUserActionExcludesTheCurrentEvent() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.event("user.action", "S", 1100, #""control":"toolbar_button""#),
            Line.event("user.action", "S", 1200, #""control":"gesture""#),
            Line.alert("S", 1300, "a1")
        )
        let views = h.views
        XCTAssertTrue(views[0].isNull("last_user_action_ts"))
        XCTAssertTrue(views[1].isNull("last_user_action_ts"), "the current action is excluded")
        XCTAssertEqual(views[1].int("last_user_action_control"), -1)
        XCTAssertEqual(views[2].int("last_user_action_ts"), 1100)
        XCTAssertEqual(views[2].int("last_user_action_control"), 2, "toolbar_button")
        XCTAssertEqual(views[3].int("last_user_action_ts"), 1200)
        XCTAssertEqual(views[3].int("last_user_action_control"), 4, "gesture")
    }

    func testTasksAndForegroundAreTracked() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.task("S", 1100, "sync", "started"),
            Line.task("S", 1150, "upload", "started"),
            Line.task("S", 1200, "sync", "finished"),
            Line.event("app.background", "S", 1300),
            Line.task("S", 1400, "upload", "failed"),
            Line.event("app.foreground", "S", 1500)
        )
        let views = h.views
        XCTAssertEqual(views.map { $0.int("tasks_running") }, [0, 1, 2, 1, 1, 0, 0])
        XCTAssertEqual(views.map { $0.int("foreground") }, [1, 1, 1, 1, 0, 0, 1])
        XCTAssertEqual(views[6].int("last_task_finished_ts"), 1200)
        XCTAssertEqual(views[6].int("last_task_failed_ts"), 1400)
        XCTAssertTrue(views[0].isNull("last_task_finished_ts"))
    }

    func testUnknownEventTypesAreCountedAndIgnored() throws {
        let h = try harness()
        h.send(Line.start("S", 1000), Line.event("shake.detected", "S", 1100), Line.action("S", 1200))
        XCTAssertEqual(h.views.count, 2)
        XCTAssertEqual(h.engine.statistics.eventsUnknownType, 1)
        XCTAssertEqual(try h.lastView().int("events"), 2)
        XCTAssertEqual(h.output.diagnostics.count, 0)
    }
}
