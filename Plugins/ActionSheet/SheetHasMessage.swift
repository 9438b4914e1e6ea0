import RuleKit

/// `sheet-has-message`: an action sheet that explains itself.
enum SheetHasMessage: Rule {
    static let id = "sheet-has-message"
    static let severity = Severity.info
    static let editions: Editions = [.edition2009, .ios7]
    static let events: [EventType] = [.sheetPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        A sheet.presented has a title or a message that is not blank (null, absent, empty or only whitespace is \
        blank); once per sheet even when it has both.
        """
    static let guideline = "Leave out an action sheet's title and message: the person's own action explains it"
    static let source = "2009: Designing an Action Sheet; ios7: Action Sheet"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let hasTitle = !event.title.isBlank
        let hasMessage = !event.message.isBlank
        guard hasTitle || hasMessage else { return }
        var evidence = Evidence()
        evidence.add("title", event.title)
        evidence.add("message", event.message)
        let what = hasTitle && hasMessage ? "a title and a message" : hasTitle ? "a title" : "a message"
        call.report(
            subject: event.id,
            message: "The action sheet \(label: event) has \(what)",
            evidence: evidence,
            suggestion:
                "Remove the \(hasTitle && hasMessage ? "title and the message" : hasTitle ? "title" : "message"): the person's own action explains the action sheet"
        )
    }

    private static let explained = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Trash"}
        {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","title":"Delete Message","message":"This message will be deleted.","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
        {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290002000,"id":"sh1","button":1,"via":"button"}
        {"v":1,"type":"user.action","session":"S1","ts":1732290003000,"control":"toolbar_button","label":"Trash"}
        {"v":1,"type":"sheet.presented","session":"S1","ts":1732290003100,"id":"sh2","title":null,"message":"Deleted messages go to Trash.","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
        """

    static let examples: [Example] = [
        Example(
            "a sheet with a title and a message, and one with a message",
            expected: 2,
            in: [.edition2009, .ios7],
            events: explained
        ),
        Example(
            "a sheet with a title and a message, and one with a message (current allows them)",
            expected: 0,
            in: .current,
            events: explained
        ),
        Example(
            "sheets with no text, and with blank text",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290002000,"id":"sh1","button":1,"via":"button"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290003000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290003100,"id":"sh2","title":"","message":"  ","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
    ]
}
