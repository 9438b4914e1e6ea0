import RuleKit

/// `alert-background-action`: leaving the app performed an alert's action instead of cancelling it.
enum AlertBackgroundAction: Rule {
    static let id = "alert-background-action"
    static let rev: UInt32 = 3
    static let severity = Severity.error
    static let editions = Editions.all
    static let events: [EventType] = [.alertDismissed]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        An alert.dismissed with via: background names a button (index within the alert's buttons) that is not its \
        cancel button (the first with style cancel, or else the first default-style button titled Cancel in any case); an alert without a cancel button fires for any named button; button null (no action) \
        or an index past the last button does not fire; about the alert's id.
        """
    static let guideline =
        "When the app leaves the foreground, dismiss an alert as Cancel does, without performing an action"
    static let source = "2009: Using Alerts; current: Alerts (Allow the Home button to cancel alerts)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        guard event.via == .background, let index = event.button,
            let alert = call.session.dismissed, alert.kind == .alert, index < alert.buttonCount,
            index != alert.cancelIndex
        else { return }
        var evidence = Evidence()
        evidence.add("button", index)
        if let cancel = alert.cancelIndex {
            evidence.add("cancel_index", cancel)
        } else {
            evidence.addNull("cancel_index")
        }
        evidence.add("buttons", alert.buttonCount)
        let cancelText: Message =
            if let cancel = alert.cancelIndex { "its cancel button is \(ordinal: cancel + 1)" } else {
                "it has no cancel button"
            }
        call.report(
            subject: event.id,
            message: """
                Leaving the app dismissed the alert \(quoted: call.dismissedTitle.isBlank ? event.id : call.dismissedTitle) by performing its \
                \(ordinal: index + 1) button; \(cancelText)
                """,
            evidence: evidence,
            events: [alert.presentedRef],
            suggestion: """
                When the app leaves the foreground, dismiss the alert as its cancel button does, without \
                performing an action
                """
        )
    }

    static let examples: [Example] = [
        Example(
            "v1.1: leaving the app taps a default-style Cancel (fine), then Delete",
            expected: 1,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this photo?","message":"It is removed from all devices.","buttons":[{"title":"Cancel"},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"background"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Delete this photo?","message":"It is removed from all devices.","buttons":[{"title":"Cancel"},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":1,"via":"background"}
                """
        ),
        Example(
            "going home performs Delete, and a one-button alert's OK",
            expected: 2,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"app.background","session":"S1","ts":1732290002000}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":1,"via":"background"}
                {"v":1,"type":"app.foreground","session":"S1","ts":1732290010000}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290011000,"id":"a2","title":"Update Installed","message":null,"buttons":[{"title":"OK"}]}
                {"v":1,"type":"app.background","session":"S1","ts":1732290012000}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290012000,"id":"a2","button":0,"via":"background"}
                """
        ),
        Example(
            "going home cancels, or performs nothing; a tap on Delete is fine",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"app.background","session":"S1","ts":1732290002000}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":1,"via":"background"}
                {"v":1,"type":"app.foreground","session":"S1","ts":1732290010000}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290011000,"id":"a2","title":"Update Installed","message":null,"buttons":[{"title":"OK"}]}
                {"v":1,"type":"app.background","session":"S1","ts":1732290012000}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290012000,"id":"a2","button":null,"via":"background"}
                {"v":1,"type":"app.foreground","session":"S1","ts":1732290020000}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290021000,"id":"a3","title":"Delete this contact?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290023000,"id":"a3","button":1,"via":"button"}
                """
        ),
    ]
}
