import RuleKit

/// `alert-no-buttons`: an alert a person cannot dismiss.
enum AlertNoButtons: Rule {
    static let id = "alert-no-buttons"
    static let severity = Severity.error
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = "An alert.presented has no buttons: the buttons field is absent or an empty array."
    static let guideline = "Give every alert at least one button"
    static let source = "2009: Designing an Alert; ios7: Alert; current: Alerts"

    static func judge(_ call: RuleCall) {
        let event = call.event
        guard event.buttons.isEmpty else { return }
        var evidence = Evidence()
        evidence.add("buttons", 0)
        evidence.add("buttons_field", event.hasButtons)
        call.report(
            subject: event.id,
            message: "The alert \(label: event) has no buttons",
            evidence: evidence,
            suggestion:
                "Give the alert \(label: event) a button that dismisses it, such as “OK”, or “Cancel” and the action"
        )
    }

    static let examples: [Example] = [
        Example(
            "an alert with an empty button list, and one without the field",
            expected: 2,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Syncing Paused","message":"Syncing resumes when the device is charging.","buttons":[]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290003000,"id":"a1","button":null,"via":"programmatic"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290004000,"id":"a2","title":"Low Storage","message":"Remove some photos to make room."}
                """
        ),
        Example(
            "an alert with one button",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Syncing Paused","message":"Syncing resumes when the device is charging.","buttons":[{"title":"OK"}]}
                """
        ),
    ]
}
