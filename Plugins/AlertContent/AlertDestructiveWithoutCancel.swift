import RuleKit

/// `alert-destructive-without-cancel`: a destructive choice with no safe way out.
enum AlertDestructiveWithoutCancel: Rule {
    static let id = "alert-destructive-without-cancel"
    static let rev: UInt32 = 3
    static let severity = Severity.warning
    static let editions: Editions = .current
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        An alert has a button with style destructive and no cancel button: no button with style cancel and no \
        default-style button titled Cancel in any case.
        """
    static let guideline = "Provide a Cancel button so people can safely opt out of a destructive action"
    static let source = "current: Alerts (Alert Buttons)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let buttons = event.buttons
        guard let destructive = buttons.firstIndex(where: { $0.style == .destructive }),
            buttons.cancelIndex(locale: call.locale) == nil
        else { return }
        var evidence = Evidence()
        evidence.add("destructive_index", destructive)
        evidence.add("buttons", buttons.count)
        evidence.add("suggested_buttons", ["Cancel"] + buttons.map { $0.title.string ?? "" })
        call.report(
            subject: event.id,
            message: """
                The alert \(label: event) has the destructive button \
                \(quoted: buttons[destructive].title) and no cancel button
                """,
            evidence: evidence,
            suggestion: """
                Add a “Cancel” button on the left of \(quoted: buttons[destructive].title) and make it the \
                preferred button
                """
        )
    }

    private static let noCancel = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Keep"},{"title":"Delete","style":"destructive"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.1: a default-style button titled Cancel beside Delete",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this photo?","message":"It is removed from all devices.","buttons":[{"title":"Cancel"},{"title":"Delete","style":"destructive"}]}
                """
        ),
        Example("Delete with Keep, which is not a cancel button", expected: 1, in: .current, events: noCancel),
        Example(
            "Delete with Keep, which is not a cancel button (current only)",
            expected: 0,
            in: [.edition2009, .ios7],
            events: noCancel
        ),
        Example(
            "Delete with Cancel, and an alert with nothing destructive",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Unable to Sync","message":null,"buttons":[{"title":"OK"},{"title":"Settings"}]}
                """
        ),
    ]
}
