import RuleKit

/// `sheet-too-many-buttons`: a sheet long enough to scroll.
enum SheetTooManyButtons: Rule {
    static let id = "sheet-too-many-buttons"
    static let severity = Severity.warning
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.sheetPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let maxButtons = Parameter<Int64>.int(
        "max_buttons",
        default: 7,
        min: 1,
        max: 64,
        "buttons a sheet may have before it scrolls"
    )
    static let parameters: [any ParameterDeclaration] = [maxButtons]
    static let summary = "A sheet.presented has more than max_buttons buttons, Cancel included (it would scroll)."
    static let guideline = "Avoid making people scroll an action sheet"
    static let source = "ios7: Action Sheet; current: Action Sheets"

    static func judge(_ call: RuleCall) {
        let limit = call[Self.maxButtons]
        let event = call.event
        let count = event.buttons.count
        guard count > limit else { return }
        var evidence = Evidence()
        evidence.add("buttons", count)
        evidence.add("max_buttons", limit)
        call.report(
            subject: event.id,
            message: "The action sheet \(label: event) has \(count: count, "button"); the limit is \(limit)",
            evidence: evidence,
            suggestion:
                "Offer at most \(limit) choices in the action sheet, or present the choices in a list or a modal view"
        )
    }

    private static let eight = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
        {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Mail"},{"title":"Message"},{"title":"Notes"},{"title":"Reminders"},{"title":"Copy"},{"title":"Print"},{"title":"Save to Files"},{"title":"Cancel","style":"cancel"}]}
        """

    static let examples: [Example] = [
        Example("eight buttons, Cancel included", expected: 1, in: [.ios7, .current], events: eight),
        Example("eight buttons, Cancel included (2009 sets no limit)", expected: 0, in: .edition2009, events: eight),
        Example(
            "seven buttons",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Mail"},{"title":"Message"},{"title":"Notes"},{"title":"Reminders"},{"title":"Copy"},{"title":"Print"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
    ]
}
