import RuleKit

/// `sheet-missing-cancel`: a sheet a person cannot back out of.
enum SheetMissingCancel: Rule {
    static let id = "sheet-missing-cancel"
    static let rev: UInt32 = 3
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.sheetPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        A phone-style sheet (device phone, or in_popover not true) or a sheet with from_popover: true has no cancel \
        button (no button with style cancel and no default-style button titled Cancel in any case); a pad sheet in a popover started \
        outside one needs none, since a tap outside dismisses it.
        """
    static let guideline = "Include a Cancel button so people can easily and safely abandon the task"
    static let source = "2009: Designing an Action Sheet; ios7: Action Sheet"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let phoneStyle = SheetLayout.isPhoneStyle(call)
        let fromPopover = event.fromPopover == true
        guard phoneStyle || fromPopover, event.buttons.cancelIndex(locale: call.locale) == nil else { return }
        var evidence = Evidence()
        evidence.add("phone_style", phoneStyle)
        evidence.add("from_popover", fromPopover)
        evidence.add("buttons", event.buttons.count)
        evidence.add("suggested_buttons", SheetLayout.titles(event, appending: "Cancel"))
        let why = phoneStyle ? "" : " although it was started from inside a popover"
        call.report(
            subject: event.id,
            message: "The action sheet \(label: event) has no cancel button\(why)",
            evidence: evidence,
            suggestion:
                "Add a “Cancel” button at the bottom: \(quotedList: SheetLayout.titles(event, appending: "Cancel"))"
        )
    }

    static let examples: [Example] = [
        Example(
            "v1.1: a default-style button titled cancel is the cancel button",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Mail"},{"title":"cancel"}]}
                """
        ),
        Example(
            "a phone sheet, a pad sheet outside a popover, and a pad sheet from inside a popover, none with Cancel",
            expected: 3,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"phone"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Mail"},{"title":"Message"}]}
                {"v":1,"type":"session.start","session":"S2","ts":1732290000000,"app":"com.example.app","device":"pad"}
                {"v":1,"type":"user.action","session":"S2","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S2","ts":1732290001100,"id":"sh1","in_popover":false,"buttons":[{"title":"Mail"},{"title":"Message"}]}
                {"v":1,"type":"sheet.dismissed","session":"S2","ts":1732290002000,"id":"sh1","button":0,"via":"button"}
                {"v":1,"type":"popover.presented","session":"S2","ts":1732290003000,"id":"p1"}
                {"v":1,"type":"user.action","session":"S2","ts":1732290004000,"control":"button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S2","ts":1732290004100,"id":"sh2","in_popover":true,"from_popover":true,"buttons":[{"title":"Mail"},{"title":"Message"}]}
                """
        ),
        Example(
            "the same sheet id shown twice in a session fires once",
            expected: 1,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Mail"},{"title":"Message"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290002000,"id":"sh1","button":0,"via":"button"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290003000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290003100,"id":"sh1","buttons":[{"title":"Mail"},{"title":"Message"}]}
                """
        ),
        Example(
            "a phone sheet with Cancel, and a pad sheet in a popover started outside one",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"phone"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","buttons":[{"title":"Mail"},{"title":"Message"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"session.start","session":"S2","ts":1732290000000,"app":"com.example.app","device":"pad"}
                {"v":1,"type":"user.action","session":"S2","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S2","ts":1732290001100,"id":"sh1","in_popover":true,"buttons":[{"title":"Mail"},{"title":"Message"}]}
                """
        ),
    ]
}
