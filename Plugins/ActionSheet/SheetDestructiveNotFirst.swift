import RuleKit

/// `sheet-destructive-not-first`: a destructive button away from the top of a sheet.
enum SheetDestructiveNotFirst: Rule {
    static let id = "sheet-destructive-not-first"
    static let severity = Severity.warning
    static let editions: Editions = [.edition2009, .ios7]
    static let events: [EventType] = [.sheetPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        A sheet (on any device) has a button with style destructive that is not its first button (so of two \
        destructive buttons the second always fires).
        """
    static let guideline = "Display a destructive button at the top of the action sheet"
    static let source = "2009: Designing an Action Sheet; ios7: Action Sheet"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let buttons = event.buttons
        guard let index = buttons.indices.first(where: { $0 > 0 && buttons[$0].style == .destructive }) else { return }
        var evidence = Evidence()
        evidence.add("destructive_index", index)
        evidence.add("buttons", buttons.count)
        evidence.add("suggested_buttons", SheetLayout.titles(event, moving: index, to: 0))
        call.report(
            subject: event.id,
            message: """
                The action sheet \(label: event) shows the destructive button \
                \(quoted: buttons[index].title) as button \(index + 1) of \(buttons.count), not at the top
                """,
            evidence: evidence,
            suggestion:
                "Put \(quoted: buttons[index].title) at the top: \(quotedList: SheetLayout.titles(event, moving: index, to: 0))"
        )
    }

    private static let deleteSecond = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Edit"}
        {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Archive"},{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
        """

    static let examples: [Example] = [
        Example("Delete below Archive", expected: 1, in: [.edition2009, .ios7], events: deleteSecond),
        Example("Delete below Archive (current sets no order)", expected: 0, in: .current, events: deleteSecond),
        Example(
            "Delete at the top, and a sheet with nothing destructive",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Edit"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Delete","style":"destructive"},{"title":"Archive"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290002000,"id":"sh1","button":2,"via":"button"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290003000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290003100,"id":"sh2","buttons":[{"title":"Mail"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
    ]
}
