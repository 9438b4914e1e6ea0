import RuleKit

/// `alert-destructive-preferred`: a destructive alert whose bold default is not Cancel.
enum AlertDestructivePreferred: Rule {
    static let id = "alert-destructive-preferred"
    static let rev: UInt32 = 3
    static let severity = Severity.warning
    static let editions: Editions = .current
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        An alert has a button with style destructive and marks preferred: true on a button that is not a cancel button \
        (the destructive one or any other; with no cancel button any preferred button fires); no preferred button, \
        or a preferred cancel button, is right.
        """
    static let guideline = "Make the Cancel button of a destructive alert the bold default"
    static let source = "current: Alerts (Alert Buttons)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let buttons = event.buttons
        guard buttons.contains(where: { $0.style == .destructive }),
            let preferred = buttons.indices.first(where: {
                buttons[$0].preferred == true && !buttons.isCancelButton($0, locale: call.locale)
            })
        else { return }
        var evidence = Evidence()
        evidence.add("preferred_index", preferred)
        evidence.add("preferred_style", buttons[preferred].style.name)
        call.report(
            subject: event.id,
            message: """
                The alert \(label: event) has a destructive button but makes \
                \(quoted: buttons[preferred].title), not Cancel, the preferred button
                """,
            evidence: evidence,
            suggestion: buttons.cancelIndex(locale: call.locale).map { cancel -> Message in
                "Make \(quoted: buttons[cancel].title) the preferred button instead of \(quoted: buttons[preferred].title)"
            } ?? "Add a “Cancel” button and make it the preferred button instead of \(quoted: buttons[preferred].title)"
        )
    }

    private static let preferredDelete = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive","preferred":true}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Discard this draft?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Save Draft","preferred":true},{"title":"Discard","style":"destructive"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.1: a preferred default-style button titled Cancel beside Delete",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this photo?","message":"It is removed from all devices.","buttons":[{"title":"Cancel","preferred":true},{"title":"Delete","style":"destructive"}]}
                """
        ),
        Example(
            "a preferred Delete, and a preferred Save Draft beside a destructive button",
            expected: 2,
            in: .current,
            events: preferredDelete
        ),
        Example(
            "a preferred Delete, and a preferred Save Draft (current only)",
            expected: 0,
            in: [.edition2009, .ios7],
            events: preferredDelete
        ),
        Example(
            "a preferred Cancel, no preferred button, and a preferred button with nothing destructive",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Cancel","style":"cancel","preferred":true},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Delete this contact?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive","preferred":false}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Save changes?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Save","preferred":true}]}
                """
        ),
    ]
}
