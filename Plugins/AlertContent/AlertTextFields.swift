import RuleKit

/// `alert-text-fields`: more text fields than an iOS 7 alert can hold.
enum AlertTextFields: Rule {
    static let id = "alert-text-fields"
    static let severity = Severity.error
    static let editions: Editions = .ios7
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        An alert.presented has more than two text fields, or more than one with secure: true (two fields, one of them \
        secure, is the most iOS 7 allows); only in ios7.
        """
    static let guideline = "Use at most two text fields in an alert, at most one of them secure"
    static let source = "ios7: Alert (Appearance and Behavior)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let fields = event.textFieldCount
        let secure = event.secureTextFieldCount
        guard fields > 2 || secure > 1 else { return }
        var evidence = Evidence()
        evidence.add("text_fields", fields)
        evidence.add("secure", secure)
        call.report(
            subject: event.id,
            message: """
                The alert \(label: event) has \(count: fields, "text field"), \(secure) of them secure; \
                the most is two, one of them secure
                """,
            evidence: evidence,
            suggestion: """
                Ask for at most two entries in the alert, one of them secure, or gather the rest in a modal view
                """
        )
    }

    private static let fields = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Sign In","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Sign In"}],"text_fields":[{"secure":false},{"secure":false},{"secure":true}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290005000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290006000,"id":"a2","title":"Change Password","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Change"}],"text_fields":[{"secure":true},{"secure":true}]}
        """

    static let examples: [Example] = [
        Example("three fields, and two secure fields", expected: 2, in: .ios7, events: fields),
        Example(
            "three fields, and two secure fields (ios7 only)",
            expected: 0,
            in: [.edition2009, .current],
            events: fields
        ),
        Example(
            "a name and a password field, and no fields",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Sign In","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Sign In"}],"text_fields":[{"secure":false},{"secure":true}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290005000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290006000,"id":"a2","title":"Sign In","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Sign In"}],"text_fields":[]}
                """
        ),
    ]
}
