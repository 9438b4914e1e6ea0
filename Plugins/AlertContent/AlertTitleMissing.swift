import RuleKit

/// `alert-title-missing`: an alert without the title iOS 7 made required.
enum AlertTitleMissing: Rule {
    static let id = "alert-title-missing"
    static let severity = Severity.warning
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        An alert.presented has no title: null, absent, empty or only whitespace (a message does not make up for it); \
        not in 2009, which let an alert show only a message.
        """
    static let guideline = "Give every alert a title"
    static let source = "ios7: Alert; current: Alerts"

    static func judge(_ call: RuleCall) {
        let event = call.event
        guard event.title.isBlank else { return }
        var evidence = Evidence()
        evidence.add("title", event.title)
        evidence.add("message", event.message)
        call.report(
            subject: event.id,
            message: "The alert \(label: event) has no title",
            evidence: evidence,
            suggestion: "Give the alert a short title of several words that says what happened"
        )
    }

    private static let messageOnly = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":null,"message":"The server could not be reached.","buttons":[{"title":"OK"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290003000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290004000,"id":"a2","title":"   ","message":"Syncing resumes later.","buttons":[{"title":"OK"}]}
        """

    static let examples: [Example] = [
        Example("alerts with a null and a blank title", expected: 2, in: [.ios7, .current], events: messageOnly),
        Example(
            "alerts with a null and a blank title (2009 allows a message alone)",
            expected: 0,
            in: .edition2009,
            events: messageOnly
        ),
        Example(
            "an alert with a title",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Message Not Sent","message":null,"buttons":[{"title":"OK"}]}
                """
        ),
    ]
}
