import RuleKit

/// `modal-missing-title`: a modal view without a title naming its task.
enum ModalMissingTitle: Rule {
    static let id = "modal-missing-title"
    static let severity = Severity.info
    static let editions = Editions.all
    static let events: [EventType] = [.modalPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = "A modal.presented has no title: null, absent, empty or only whitespace."
    static let guideline = "Display a title that identifies the modal view's task"
    static let source = "2009: Designing a Modal View; ios7: Modal View; current: Modality"

    static func judge(_ call: RuleCall) {
        let event = call.event
        guard event.title.isBlank else { return }
        var evidence = Evidence()
        evidence.add("title", event.title)
        call.report(
            subject: event.id,
            message: "The modal view \(quoted: event.id) has no title",
            evidence: evidence,
            suggestion: "Give the modal view a title that names its task"
        )
    }

    static let examples: [Example] = [
        Example(
            "modal views without a title, with a blank one and with a null one",
            expected: 3,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290002000,"id":"m1","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290003000,"id":"m2","title":"  ","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290004000,"id":"m2","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290005000,"id":"m3","title":null,"buttons":[{"title":"Cancel","role":"cancel"}]}
                """
        ),
        Example(
            "a modal view titled New Message",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
                """
        ),
    ]
}
