import RuleKit

/// `sheet-too-few-buttons`: an action sheet that offers no choice.
enum SheetTooFewButtons: Rule {
    static let id = "sheet-too-few-buttons"
    static let severity = Severity.error
    static let editions = Editions.all
    static let events: [EventType] = [.sheetPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary =
        "A sheet.presented has fewer than two buttons (absent, empty or one; a lone Cancel counts as one)."
    static let guideline = "Give an action sheet more than one button"
    static let source = "2009: Using Action Sheets; ios7: Action Sheet"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let count = event.buttons.count
        guard count < 2 else { return }
        var evidence = Evidence()
        evidence.add("buttons", count)
        call.report(
            subject: event.id,
            message: "The action sheet \(label: event) has \(count: count, "button"); it needs at least 2",
            evidence: evidence,
            suggestion:
                "Give the action sheet the choices it offers and a “Cancel” button, or use an alert for a single message"
        )
    }

    static let examples: [Example] = [
        Example(
            "a sheet with only Cancel, and one with no buttons",
            expected: 2,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290002000,"id":"sh1","button":0,"via":"button"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290003000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290003100,"id":"sh2","buttons":[]}
                """
        ),
        Example(
            "a sheet with Delete and Cancel",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Delete Message","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
    ]
}
