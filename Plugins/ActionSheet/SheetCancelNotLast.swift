import RuleKit

/// `sheet-cancel-not-last`: a phone-style sheet whose Cancel is not at the bottom.
enum SheetCancelNotLast: Rule {
    static let id = "sheet-cancel-not-last"
    static let rev: UInt32 = 3
    static let severity = Severity.warning
    static let editions: Editions = [.edition2009, .ios7]
    static let events: [EventType] = [.sheetPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        A phone-style sheet (device phone, or in_popover not true) has a cancel button (style cancel, or else a \
        default-style button titled Cancel in any case) that is not its last button (so of two cancel buttons one always fires); a sheet without a cancel button is not judged.
        """
    static let guideline = "Display the Cancel button at the bottom of an action sheet"
    static let source = "2009: Designing an Action Sheet; ios7: Action Sheet"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let buttons = event.buttons
        guard SheetLayout.isPhoneStyle(call),
            let cancel = buttons.cancelIndex(locale: call.locale), cancel != buttons.count - 1
        else { return }
        var evidence = Evidence()
        evidence.add("cancel_index", cancel)
        evidence.add("buttons", buttons.count)
        evidence.add("suggested_buttons", SheetLayout.titles(event, moving: cancel, to: .max))
        call.report(
            subject: event.id,
            message: """
                The action sheet \(label: event) shows Cancel \(quoted: buttons[cancel].title) as \
                button \(cancel + 1) of \(buttons.count), not at the bottom
                """,
            evidence: evidence,
            suggestion:
                "Put \(quoted: buttons[cancel].title) at the bottom: \(quotedList: SheetLayout.titles(event, moving: cancel, to: .max))"
        )
    }

    private static let cancelFirst = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
        {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Mail"},{"title":"Message"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.1: a default-style button titled Cancel at the top",
            expected: 1,
            in: [.edition2009, .ios7],
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Cancel"},{"title":"Mail"}]}
                """
        ),
        Example("Cancel at the top of a phone sheet", expected: 1, in: [.edition2009, .ios7], events: cancelFirst),
        Example(
            "Cancel at the top of a phone sheet (current sets no order)",
            expected: 0,
            in: .current,
            events: cancelFirst
        ),
        Example(
            "Cancel last on a phone, and anywhere in an iPad popover",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"phone"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Mail"},{"title":"Message"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"session.start","session":"S2","ts":1732290000000,"app":"com.example.app","device":"pad"}
                {"v":1,"type":"popover.presented","session":"S2","ts":1732290001000,"id":"p1"}
                {"v":1,"type":"user.action","session":"S2","ts":1732290002000,"control":"button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S2","ts":1732290002100,"id":"sh1","in_popover":true,"from_popover":true,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Mail"}]}
                """
        ),
    ]
}
