import ModalwatchTesting
import SessionEngine
import XCTest

/// The presentation stack of events.md, as rules see it (through `probe-view`).
final class PresentationStackTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "stack", fixtures: ["probe"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    private func harness() throws -> Harness { try Harness(modules: Self.modules) }

    private enum Kind { static let alert = 0, sheet = 1, modal = 2, popover = 3 }

    func testPresentationsStackInOrderAndOnlyModalsCountTowardsDepth() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.alert("S", 1100, "a1"),
            Line.present("modal", "S", 1200, "m1"),
            Line.present("sheet", "S", 1300, "s1"),
            Line.present("popover", "S", 1400, "p1"),
            Line.present("modal", "S", 1500, "m2")
        )
        let views = h.views
        XCTAssertEqual(views.count, 6)
        XCTAssertEqual(views.map { $0.int("modal_depth") }, [0, 0, 1, 1, 1, 2])
        XCTAssertEqual(views.map { $0.stack.count }, [0, 1, 2, 3, 4, 5])
        let last = try h.lastView()
        XCTAssertEqual(last.stackIDs, ["a1", "m1", "s1", "p1", "m2"])
        XCTAssertEqual(last.stack.map(\.kind), [Kind.alert, Kind.modal, Kind.sheet, Kind.popover, Kind.modal])
        XCTAssertEqual(last.stack.map { $0.int("ts") }, [1100, 1200, 1300, 1400, 1500])
        XCTAssertEqual(last.int("max_modal_depth"), 2)
        XCTAssertEqual(last.int("alerts_presented"), 1)
        XCTAssertEqual(last.int("presentations"), 4, "alerts, sheets and modals count; popovers do not")
        XCTAssertTrue(views.allSatisfy { $0.isNull("dismissed") }, "no dismissal yet")
    }

    func testDismissalRemovesTheEntryAndEverythingPresentedAboveIt() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.alert("S", 1100, "a1"),
            Line.present("modal", "S", 1200, "m1"),
            Line.present("sheet", "S", 1300, "s1"),
            Line.present("popover", "S", 1400, "p1"),
            Line.present("modal", "S", 1500, "m2"),
            Line.dismiss("modal", "S", 1600, "m1", #""via":"button""#)
        )
        let dismissal = try h.lastView()
        XCTAssertEqual(dismissal.stackIDs, ["a1"], "the rule sees the stack after the dismissal")
        XCTAssertEqual(dismissal.int("modal_depth"), 0)
        XCTAssertEqual(dismissal.int("max_modal_depth"), 2)
        let removed = try XCTUnwrap(dismissal.dismissed, "a dismissal hands the removed entry to rules")
        XCTAssertEqual(removed.id, "m1")
        XCTAssertEqual(removed.kind, Kind.modal)
        XCTAssertEqual(removed.int("ts"), 1200)

        h.send(Line.present("modal", "S", 1700, "m3"), Line.action("S", 1800))
        let after = try h.lastView()
        XCTAssertEqual(after.stackIDs, ["a1", "m3"])
        XCTAssertEqual(after.int("modal_depth"), 1)
        XCTAssertEqual(after.int("max_modal_depth"), 2, "the deepest the session has been")
        XCTAssertTrue(after.isNull("dismissed"), "only a dismissal carries the dismissed entry")

        h.send(Line.dismiss("alert", "S", 1900, "a1", #""button":0,"via":"button""#))
        let bottom = try h.lastView()
        XCTAssertEqual(bottom.stackIDs, [])
        XCTAssertEqual(bottom.dismissed?.id, "a1")
        XCTAssertEqual(bottom.dismissed?.kind, Kind.alert)
        XCTAssertEqual(h.output.diagnostics.count, 0)
    }

    func testDismissingAnIDNotOnTheStackIsDiagnosedAndRulesAreNotCalled() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.alert("S", 1100, "a1"),
            Line.dismiss("alert", "S", 1200, "zz", #""button":0,"via":"button""#)
        )
        XCTAssertEqual(h.views.count, 2, "rules are not called for an unknown dismissal")
        let diagnostics = h.output.diagnostics(.unknownDismiss)
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(diagnostics.first?.app, "com.example.mail")
        XCTAssertEqual(diagnostics.first?.session, "S")
        XCTAssertTrue(diagnostics.first?.detail.contains("'zz'") ?? false, diagnostics.first?.detail ?? "")
        XCTAssertEqual(h.engine.statistics.unknownDismissals, 1)

        // Dismissed twice: the second is unknown as well.
        h.send(
            Line.dismiss("alert", "S", 1300, "a1", #""button":0,"via":"button""#),
            Line.dismiss("alert", "S", 1400, "a1", #""button":0,"via":"button""#),
            Line.action("S", 1500)
        )
        XCTAssertEqual(h.output.diagnostics(.unknownDismiss).count, 2)
        let last = try h.lastView()
        XCTAssertEqual(last.stackIDs, [])
        XCTAssertEqual(last.int("events"), 4, "the two ignored dismissals are not judged events")
        XCTAssertEqual(h.engine.statistics.eventsJudged, 4)
    }

    func testNavigationCountsOnTheTopmostEntryAndNeverBelowZero() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000),
            Line.event("nav.push", "S", 1050, #""screen":"root""#),
            Line.present("modal", "S", 1100, "m1"),
            Line.event("nav.push", "S", 1200, #""screen":"a""#),
            Line.event("nav.push", "S", 1300, #""screen":"b""#),
            Line.event("nav.push", "S", 1400, #""screen":"c""#),
            Line.event("nav.pop", "S", 1500)
        )
        XCTAssertEqual(try h.lastView().stack.first?.int("nav_depth"), 2)

        h.send(
            Line.alert("S", 1600, "a1"),
            Line.event("nav.push", "S", 1700)
        )
        var view = try h.lastView()
        XCTAssertEqual(view.stack.map { $0.int("nav_depth") }, [2, 1], "navigation counts on the topmost entry only")

        h.send(
            Line.dismiss("alert", "S", 1800, "a1", #""button":0,"via":"button""#),
            Line.event("nav.pop", "S", 1900),
            Line.event("nav.pop", "S", 2000),
            Line.event("nav.pop", "S", 2100)
        )
        view = try h.lastView()
        XCTAssertEqual(view.stack.map { $0.int("nav_depth") }, [0], "never below 0")
        h.send(Line.event("nav.push", "S", 2200))
        XCTAssertEqual(try h.lastView().stack.map { $0.int("nav_depth") }, [1])

        h.send(Line.dismiss("modal", "S", 2300, "m1"), Line.event("nav.push", "S", 2400))
        view = try h.lastView()
        XCTAssertEqual(view.stackIDs, [], "navigation with nothing presented changes nothing")
        XCTAssertEqual(view.int("event_type"), 15)
    }

    func testPopoversAreOnTheStackAndTakeWhatTheyPresentedWithThem() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, #""device":"pad""#),
            Line.present("popover", "S", 1100, "p1"),
            Line.present("sheet", "S", 1200, "s1", #""in_popover":true,"from_popover":false"#),
            Line.present("modal", "S", 1300, "m1")
        )
        var view = try h.lastView()
        XCTAssertEqual(view.stack.map(\.kind), [Kind.popover, Kind.sheet, Kind.modal])
        XCTAssertEqual(view.int("modal_depth"), 1)
        XCTAssertEqual(view.stack[1].int("in_popover"), 1)

        h.send(Line.dismiss("popover", "S", 1400, "p1"))
        view = try h.lastView()
        XCTAssertEqual(view.stackIDs, [])
        XCTAssertEqual(view.int("modal_depth"), 0)
        XCTAssertEqual(view.dismissed?.kind, Kind.popover)
        XCTAssertEqual(view.dismissed?.id, "p1")
        XCTAssertEqual(view.int("presentations"), 2, "the popover is not counted as a presentation")
    }

    func testEntriesCarryTheirButtonsStyleAndEffectiveSizeClass() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, #""device":"pad""#),
            Line.alert(
                "S",
                1100,
                "a1",
                #""buttons":[{"title":"Keep"},{"title":"Erase","style":"destructive"},{"title":"Cancel","style":"cancel"},{"title":"Also","style":"cancel"}]"#
            ),
            Line.present("sheet", "S", 1200, "s1", #""buttons":[{"title":"Go","style":"default"}]"#),
            Line.present(
                "modal",
                "S",
                1300,
                "m1",
                #""style":"form_sheet","transition":"flip_horizontal","buttons":[{"title":"Done","role":"done"},{"title":"Cancel","role":"cancel"}]"#
            ),
            Line.present("modal", "S", 1400, "m2", #""size_class":"compact""#)
        )
        let view = try h.lastView()
        XCTAssertEqual(view.int("device"), 1, "pad")
        XCTAssertEqual(view.int("size_class"), 1, "a pad without size_class is regular")
        let alert = view.stack[0]
        let sheet = view.stack[1]
        let modal = view.stack[2]
        let compact = view.stack[3]
        XCTAssertEqual(alert.int("button_count"), 4)
        XCTAssertEqual(alert.int("cancel_index"), 2, "the first cancel button")
        XCTAssertEqual(alert.int("destructive_index"), 1)
        XCTAssertEqual(alert.int("style"), -1)
        XCTAssertEqual(sheet.int("button_count"), 1)
        XCTAssertEqual(sheet.int("cancel_index"), -1)
        XCTAssertEqual(sheet.int("in_popover"), -1, "absent")
        XCTAssertEqual(modal.int("button_count"), 2)
        XCTAssertEqual(modal.int("style"), 3, "form_sheet")
        XCTAssertEqual(modal.int("transition"), 1, "flip_horizontal")
        XCTAssertEqual(modal.int("size_class"), 1, "the session's size class")
        XCTAssertEqual(compact.int("size_class"), 0, "its own size class")
    }

    func testPhoneSessionsAreCompactAndOtherDevicesRegular() throws {
        let h = try harness()
        h.send(
            Line.start("P", 1000),
            Line.start("M", 1000, #""device":"mac""#),
            Line.start("X", 1000, #""device":"phone","size_class":"regular""#)
        )
        let views = h.views
        XCTAssertEqual(views.map { $0.int("device") }, [0, 2, 0])
        XCTAssertEqual(views.map { $0.int("size_class") }, [0, 1, 1])
    }

    func testAStackThatIsNeverDismissedStaysBounded() throws {
        let h = try harness()
        h.send(Line.start("S", 1000))
        h.send((1...(Engine.maxStackDepth + 44)).map { Line.alert("S", Int64(1000 + $0), "a\($0)") })
        let snapshot = try XCTUnwrap(h.engine.sessionSnapshot(id: "S"))
        XCTAssertLessThanOrEqual(snapshot.stack.count, Engine.maxStackDepth)
        XCTAssertGreaterThan(snapshot.stack.count, 0)
        XCTAssertEqual(snapshot.stack.last?.id, "a\(Engine.maxStackDepth + 44)", "the latest presentation is topmost")
        XCTAssertEqual(snapshot.alerts, UInt64(Engine.maxStackDepth + 44))
    }

    /// Engine+Apply.swift says a full stack forgets its bottom rather than grow, but it forgets all of it:
    /// the 257th presentation leaves a stack of one, and the modal at the bottom and every alert are gone.
    func testKnownBug_AFullStackForgetsOnlyItsBottomEntry() throws {
        let h = try harness()
        let depth = Engine.maxStackDepth
        h.send(Line.start("S", 1000), Line.present("modal", "S", 1001, "m0"))
        h.send((1..<depth).map { Line.alert("S", Int64(1001 + $0), "a\($0)") })
        XCTAssertEqual(try h.lastView().stack.count, depth, "full, not yet over")
        XCTAssertEqual(try h.lastView().int("modal_depth"), 1)

        h.send(Line.alert("S", 5000, "a\(depth)"))
        let view = try h.lastView()
        XCTAssertEqual(view.stack.count, depth, "one entry forgotten, not all")
        XCTAssertEqual(view.stack.first?.id, "a1", "the bottom entry (m0) is the one forgotten")
        XCTAssertEqual(view.stack.last?.id, "a\(depth)")
        XCTAssertEqual(view.int("modal_depth"), 0)
    }

    func testSnapshotShowsTheStackAsRulesSeeIt() throws {
        let h = try harness()
        h.send(
            Line.start("S", 1000, app: "com.example.mail"),
            Line.present("modal", "S", 1100, "m1"),
            Line.event("nav.push", "S", 1200),
            Line.alert("S", 1300, "a1")
        )
        let snapshot = try XCTUnwrap(h.engine.sessionSnapshot(id: "S"))
        XCTAssertEqual(snapshot.app, "com.example.mail")
        XCTAssertEqual(snapshot.stack.map(\.kind), ["modal", "alert"])
        XCTAssertEqual(snapshot.stack.map(\.id), ["m1", "a1"])
        XCTAssertEqual(snapshot.stack.map(\.navDepth), [1, 0])
        XCTAssertEqual(snapshot.modalDepth, 1)
        XCTAssertEqual(snapshot.events, 4)
        XCTAssertNil(h.engine.sessionSnapshot(id: "nope"))
    }
}
