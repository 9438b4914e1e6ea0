import RuleKit

/// `modal-missing-dismiss`: a modal view without a Done or Cancel button.
enum ModalMissingDismiss: Rule {
    static let id = "modal-missing-dismiss"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.modalPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        A modal.presented has no button with role done or cancel (absent buttons, or buttons without \
        a role, count as none); titles are not read.
        """
    static let guideline = "Always include a button that dismisses the modal view"
    static let source = "2009: Using Modal Views; ios7: Modal View; current: Modality"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let buttons = event.modalButtons
        guard !buttons.contains(where: { $0.role == .done || $0.role == .cancel }) else { return }
        var evidence = Evidence()
        evidence.add("buttons", texts: buttons.count) { buttons[$0].title }
        evidence.add("roles", buttons.map { $0.role?.name ?? "none" })
        call.report(
            subject: event.id,
            message: buttons.isEmpty
                ? "The modal view \(label: event) has no buttons, so no Done or Cancel button"
                : """
                The modal view \(label: event) has \(count: buttons.count, "button"), \
                none of them with role done or cancel
                """,
            evidence: evidence,
            suggestion: "Give the modal view a Done or Cancel button, so people can always leave it"
        )
    }

    static let examples: [Example] = [
        Example(
            "a compose view with only Send, and a view with no buttons",
            expected: 2,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","style":"page_sheet","title":"New Message","buttons":[{"title":"Send","role":"confirm"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290009000,"id":"m1","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290010000,"id":"m2","style":"full_screen","title":"Photo"}
                """
        ),
        Example(
            "a compose view with Cancel and Send",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","style":"page_sheet","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290004000,"id":"m2","style":"form_sheet","title":"Recipients","buttons":[{"title":"Done","role":"done"}]}
                """
        ),
    ]
}
