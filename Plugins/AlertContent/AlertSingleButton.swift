import RuleKit

/// `alert-single-button`: an alert that informs but gives no choice.
enum AlertSingleButton: Rule {
    static let id = "alert-single-button"
    static let severity = Severity.info
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = "An alert.presented has exactly one button, whatever its style."
    static let guideline = "Use two-button alerts: a single button informs but gives no choice"
    static let source = "2009: Designing an Alert; ios7: Alert; current: Alerts (Alert Buttons)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let buttons = event.buttons
        guard buttons.count == 1 else { return }
        var evidence = Evidence()
        evidence.add("buttons", 1)
        evidence.add("button", buttons[0].title)
        call.report(
            subject: event.id,
            message: """
                The alert \(label: event) has one button, \
                \(quoted: buttons[0].title), so it gives no choice
                """,
            evidence: evidence,
            suggestion: """
                Offer a choice beside \(quoted: buttons[0].title), such as “Cancel”; if the alert only informs, \
                consider telling it in the app without an alert
                """
        )
    }

    static let examples: [Example] = [
        Example(
            "an alert with only OK",
            expected: 1,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Message Not Sent","message":"The server could not be reached.","buttons":[{"title":"OK","style":"default"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290003000,"id":"a1","button":0,"via":"button"}
                """
        ),
        Example(
            "the same alert id shown twice in a session fires once",
            expected: 1,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Message Not Sent","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290003000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290009000,"id":"a1","title":"Message Not Sent","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "alerts with two buttons, and with none",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Message Not Sent","message":"The server could not be reached.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Try Again"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290003000,"id":"a1","button":1,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290004000,"id":"a2","title":"Syncing Paused","message":null,"buttons":[]}
                """
        ),
    ]
}
