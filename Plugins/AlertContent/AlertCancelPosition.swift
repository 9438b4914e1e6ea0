import RuleKit

/// `alert-cancel-position`: the cancel button of a two-button alert on the wrong side.
enum AlertCancelPosition: Rule {
    static let id = "alert-cancel-position"
    static let rev: UInt32 = 3
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        Only alerts with exactly two buttons, exactly one of them a cancel button (style cancel, \
        or else a default-style button titled Cancel in any case; index 0 is left). 2009, ios7: \
        Cancel belongs on the right when the other button is destructive, else on the left. current: always on the \
        left.
        """
    static let guideline = "Place the Cancel button where people expect it"
    static let source =
        "2009: Designing an Alert; ios7: Alert (Place buttons appropriately); current: Alerts (Alert Buttons)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let buttons = event.buttons
        guard buttons.count == 2 else { return }
        let leftCancel = buttons.isCancelButton(0, locale: call.locale)
        let rightCancel = buttons.isCancelButton(1, locale: call.locale)
        guard leftCancel != rightCancel else { return }
        let cancel = leftCancel ? 0 : 1
        let otherDestructive = buttons[1 - cancel].style == .destructive
        let expected = call.edition == .current ? 0 : (otherDestructive ? 1 : 0)
        guard cancel != expected else { return }
        let side = ["left", "right"]
        var evidence = Evidence()
        evidence.add("cancel_index", cancel)
        evidence.add("expected_index", expected)
        evidence.add("other_destructive", otherDestructive)
        // Two buttons, the cancel button on the wrong side: swapped.
        evidence.add("suggested_buttons", [buttons[1].title.string ?? "", buttons[0].title.string ?? ""])
        let why =
            call.edition == .current
            ? "Cancel buttons belong on the left"
            : (otherDestructive
                ? "it belongs on the right when the other button is destructive" : "it belongs on the left")
        call.report(
            subject: event.id,
            message: """
                The alert \(label: event) puts Cancel \(quoted: buttons[cancel].title) on the \
                \(side[cancel]); \(why)
                """,
            evidence: evidence,
            suggestion: """
                Put \(quoted: buttons[cancel].title) on the \(side[expected]): \
                \(quotedList: expected == 0 ? [buttons[cancel].title.string ?? "", buttons[1 - cancel].title.string ?? ""] : [buttons[1 - cancel].title.string ?? "", buttons[cancel].title.string ?? ""])
                """
        )
    }

    private static let cancelLeftDestructive = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
        """
    private static let cancelRightDestructive = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.1: a default-style button titled Cancel on the right of OK",
            expected: 1,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Send this message?","message":"It is removed from all devices.","buttons":[{"title":"OK"},{"title":"Cancel"}]}
                """
        ),
        Example(
            "Cancel left of a destructive Delete",
            expected: 1,
            in: [.edition2009, .ios7],
            events: cancelLeftDestructive
        ),
        Example(
            "Cancel left of a destructive Delete (current: always left)",
            expected: 0,
            in: .current,
            events: cancelLeftDestructive
        ),
        Example(
            "Cancel right of a destructive Delete",
            expected: 0,
            in: [.edition2009, .ios7],
            events: cancelRightDestructive
        ),
        Example(
            "Cancel right of a destructive Delete (current: always left)",
            expected: 1,
            in: .current,
            events: cancelRightDestructive
        ),
        Example(
            "Cancel right of a benign button",
            expected: 1,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Save to iCloud?","message":null,"buttons":[{"title":"Save"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
        Example(
            "Cancel left of a benign button, and alerts that are not judged",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Save to iCloud?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Save"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":1,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Save to iCloud?","message":null,"buttons":[{"title":"Save"},{"title":"Later"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":1,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Save to iCloud?","message":null,"buttons":[{"title":"Save"},{"title":"Later"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
    ]
}
