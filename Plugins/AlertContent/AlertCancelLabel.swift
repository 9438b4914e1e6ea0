import RuleKit

/// `alert-cancel-label`: a cancel button not labeled Cancel.
enum AlertCancelLabel: Rule {
    static let id = "alert-cancel-label"
    static let rev: UInt32 = 2
    static let severity = Severity.warning
    static let editions: Editions = .current
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let summary = """
        An alert with two or more buttons has a cancel button (style cancel, or else a default-style button titled \
        Cancel in any case) whose title is not exactly Cancel (byte for byte: cancel, CANCEL, Cancel. and Not Now \
        all fire); a one-button alert is not judged; not in 2009 or ios7, \
        which suggested Cancel without requiring it.
        """
    static let guideline = "Label a button that cancels an alert's action Cancel"
    static let source = "current: Alerts (Alert Buttons)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let buttons = event.buttons
        guard buttons.count >= 2 else { return }
        guard let index = buttons.indices.first(where: { buttons.isCancelButton($0) && buttons[$0].title != "Cancel" })
        else { return }
        var evidence = Evidence()
        evidence.add("button", index)
        evidence.add("button_title", buttons[index].title)
        evidence.add("suggested_buttons", buttons.indices.map { $0 == index ? "Cancel" : buttons[$0].title.string ?? "" })
        call.report(
            subject: event.id,
            message: """
                The cancel button of the alert \(label: event) is titled \(quoted: buttons[index].title), \
                not Cancel
                """,
            evidence: evidence,
            suggestion: "Title the cancel button “Cancel” instead of \(quoted: buttons[index].title)"
        )
    }

    private static let notNow = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Rate this app?","message":null,"buttons":[{"title":"Not Now","style":"cancel"},{"title":"Rate"}]}
        """

    static let examples: [Example] = [
        Example("v1.1: a default-style button titled CANCEL is the cancel button, and not titled Cancel", expected: 1, in: .current, events: """
            \(ExampleEvents.sessionStart)
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this photo?","message":"It is removed from all devices.","buttons":[{"title":"CANCEL"},{"title":"Delete","style":"destructive"}]}
            """),
        Example("v1.1: a default-style button titled Cancel", expected: 0, events: """
            \(ExampleEvents.sessionStart)
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this photo?","message":"It is removed from all devices.","buttons":[{"title":"Cancel"},{"title":"Delete","style":"destructive"}]}
            """),
        Example("a cancel button titled Not Now", expected: 1, in: .current, events: notNow),
        Example("a cancel button titled Not Now (2009 and ios7 allow it)", expected: 0, in: [.edition2009, .ios7], events: notNow),
        Example("Cancel, and a one-button alert whose only button cancels", expected: 0, events: """
            \(ExampleEvents.sessionStart)
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Download finished","message":null,"buttons":[{"title":"Dismiss","style":"cancel"}]}
            """),
    ]
}
