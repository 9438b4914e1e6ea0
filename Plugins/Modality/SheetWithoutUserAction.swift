import RuleKit

/// `sheet-without-user-action`: an action sheet that did not answer a person's action.
enum SheetWithoutUserAction: Rule {
    static let id = "sheet-without-user-action"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.sheetPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let window = Parameter<Int64>.duration(
        "window",
        defaultMs: 1_000,
        minMs: 1,
        "how soon after a user action an action sheet must appear"
    )
    static let parameters: [any ParameterDeclaration] = [window]
    static let summary = """
        A sheet.presented arrives with no user.action in the session within the preceding window \
        (an action exactly window ms earlier still counts).
        """
    static let guideline = "Show an action sheet only in response to a person's action"
    static let source = "2009: Using Action Sheets; ios7: Action Sheet; current: Modality"

    static func judge(_ call: RuleCall) {
        let window = call[Self.window]
        let event = call.event
        let last = call.session.lastUserActionTs
        if let last, event.ts - last <= window { return }
        var evidence = Evidence()
        evidence.add("window_ms", window)
        let message: Message
        if let last {
            evidence.add("since_action_ms", event.ts - last)
            message = """
                The action sheet \(label: event) appeared \(duration: event.ts - last) after the last user action; \
                the limit is \(duration: window)
                """
        } else {
            evidence.addNull("since_action_ms")
            message = "The action sheet \(label: event) appeared with no user action before it"
        }
        call.report(
            subject: event.id,
            message: message,
            evidence: evidence,
            event: last.map { EventRef(type: .userAction, ts: $0) },
            suggestion:
                "Show an action sheet only in response to a person's action; tell of other events in the app or with an alert"
        )
    }

    static let examples: [Example] = [
        Example(
            "a sheet out of nowhere, and one long after the last tap",
            expected: 2,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290002000,"id":"sh1","buttons":[{"title":"Rate Now"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290004000,"id":"sh1","button":1,"via":"button"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290010000,"control":"cell","label":"Inbox"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290015000,"id":"sh2","buttons":[{"title":"Enable Notifications"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
        Example(
            "a sheet right after tapping Trash",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"phone"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290004000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290004100,"id":"sh1","buttons":[{"title":"Delete Message","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290005200,"id":"sh1","button":0,"via":"button"}
                """
        ),
    ]
}
