import RuleKit

/// `sheet-cancel-in-popover`: a Cancel button an iPad popover sheet does not need.
enum SheetCancelInPopover: Rule {
    static let id = "sheet-cancel-in-popover"
    static let rev: UInt32 = 3
    static let severity = Severity.info
    static let editions: Editions = .ios7
    static let events: [EventType] = [.sheetPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        On a pad, a sheet with in_popover: true that was not started from_popover (false or absent) has a cancel button \
        (style cancel, or else a default-style button titled Cancel in any case); only in ios7 (the first iOS 7 text's iPad table; the revised text is silent on iPad).
        """
    static let guideline =
        "Leave out the Cancel button of an action sheet in an iPad popover: a tap outside dismisses it"
    static let source =
        "ios7: Action Sheet (On iPad, base the way the action sheet is displayed on the way the user initiates the task)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        guard call.session.device == .pad, event.inPopover == true, event.fromPopover != true,
            let cancel = event.buttons.cancelIndex(locale: call.locale)
        else { return }
        var evidence = Evidence()
        evidence.add("cancel_index", cancel)
        call.report(
            subject: event.id,
            message: """
                The action sheet \(label: event) in a popover has the cancel button \
                \(quoted: event.buttons[cancel].title); a tap outside the popover dismisses it
                """,
            evidence: evidence,
            suggestion:
                "Remove the button \(quoted: event.buttons[cancel].title): a tap outside the popover dismisses the action sheet"
        )
    }

    private static let padCancel = """
        {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"pad"}
        {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
        {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","in_popover":true,"from_popover":false,"buttons":[{"title":"Mail"},{"title":"Message"},{"title":"Cancel","style":"cancel"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.1: a default-style button titled Cancel is the cancel button",
            expected: 1,
            in: .ios7,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"pad"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","in_popover":true,"from_popover":false,"buttons":[{"title":"Mail"},{"title":"Cancel"}]}
                """
        ),
        Example("a pad sheet in a popover with Cancel", expected: 1, in: .ios7, events: padCancel),
        Example(
            "a pad sheet in a popover with Cancel (ios7 only)",
            expected: 0,
            in: [.edition2009, .current],
            events: padCancel
        ),
        Example(
            "Cancel where it belongs: from inside a popover, on a phone, on a pad outside a popover",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"pad"}
                {"v":1,"type":"popover.presented","session":"S1","ts":1732290001000,"id":"p1"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290002000,"control":"button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290002100,"id":"sh1","in_popover":true,"from_popover":true,"buttons":[{"title":"Mail"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290003000,"id":"sh1","button":1,"via":"button"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290004000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290004100,"id":"sh2","in_popover":false,"buttons":[{"title":"Mail"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"session.start","session":"S2","ts":1732290000000,"app":"com.example.app","device":"phone"}
                {"v":1,"type":"user.action","session":"S2","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S2","ts":1732290001100,"id":"sh1","in_popover":true,"buttons":[{"title":"Mail"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
    ]
}
