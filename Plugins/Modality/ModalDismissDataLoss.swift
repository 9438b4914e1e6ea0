import RuleKit

/// `modal-dismiss-data-loss`: a modal view closed, discarding the person's content unasked.
enum ModalDismissDataLoss: Rule {
    static let id = "modal-dismiss-data-loss"
    static let severity = Severity.error
    static let editions = Editions.current
    static let events: [EventType] = [.modalDismissed]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        A modal.dismissed of a presentation on the stack has unsaved_changes true and not confirmed true \
        (confirmed absent counts as not confirmed), whatever the way it was closed.
        """
    static let guideline = "Get confirmation before closing a modal view that would lose the person's content"
    static let source = "current: Modality"

    static func judge(_ call: RuleCall) {
        let event = call.event
        guard event.unsavedChanges == true, event.confirmed != true else { return }
        var evidence = Evidence()
        evidence.add("via", event.via?.name)
        evidence.add("unsaved_changes", true)
        if let confirmed = event.confirmed {
            evidence.add("confirmed", confirmed)
        } else {
            evidence.addNull("confirmed")
        }
        let how = event.via.map { " by \($0 == .programmatic ? "the app" : "a \($0.name)")" } ?? ""
        call.report(
            subject: event.id,
            message:
                "The modal view \(quoted: call.dismissedTitle.isBlank ? event.id : call.dismissedTitle) was closed\(how), discarding unsaved changes without confirmation",
            evidence: evidence,
            events: call.session.dismissed.map { [$0.presentedRef] } ?? [],
            suggestion: "Before closing a modal view with unsaved changes, ask whether to save or discard them"
        )
    }

    private static let swipedAway = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","style":"page_sheet","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
        {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290030000,"id":"m1","via":"gesture","button":null,"unsaved_changes":true}
        """

    static let examples: [Example] = [
        Example("a draft swiped away without asking", expected: 1, in: .current, events: swipedAway),
        Example(
            "a draft swiped away without asking (older editions)",
            expected: 0,
            in: [.edition2009, .ios7],
            events: swipedAway
        ),
        Example(
            "the app asked first, or nothing was lost",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","style":"page_sheet","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
                {"v":1,"type":"user.action","session":"S1","ts":1732290030000,"control":"bar_button","label":"Cancel"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290030100,"id":"sh1","buttons":[{"title":"Delete Draft","style":"destructive"},{"title":"Save Draft"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290032000,"id":"sh1","button":0,"via":"button"}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290032100,"id":"m1","via":"button","button":0,"unsaved_changes":true,"confirmed":true}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290040000,"id":"m2","style":"page_sheet","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290042000,"id":"m2","via":"gesture","button":null,"unsaved_changes":false}
                """
        ),
    ]
}
