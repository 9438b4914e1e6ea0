import RuleKit

/// `modal-over-popover`: a modal view presented while a popover is showing.
enum ModalOverPopover: Rule {
    static let id = "modal-over-popover"
    static let severity = Severity.error
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.modalPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        A modal.presented arrives while a popover is anywhere on the stack below it (alerts are allowed; \
        action sheets show in popovers by design and are not judged).
        """
    static let guideline = "Don't display a modal view on top of a popover; close the popover first"
    static let source = "ios7: Modal View; current: Modality"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let stack = call.session.stack
        guard let popover = stack.dropLast().last(where: { $0.kind == .popover }) else { return }
        var evidence = Evidence()
        evidence.add("popover", popover.id)
        evidence.add("popover_shown_ms", event.ts - popover.ts)
        call.report(
            subject: event.id,
            message: "The modal view \(label: event) was presented while the popover \(quoted: popover.id) is showing",
            evidence: evidence,
            event: popover.presentedRef,
            suggestion: "Dismiss the popover before presenting the modal view"
        )
    }

    private static let overPopover = """
        {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"pad"}
        {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"bar_button","label":"Filters"}
        {"v":1,"type":"popover.presented","session":"S1","ts":1732290001100,"id":"p1"}
        {"v":1,"type":"user.action","session":"S1","ts":1732290003000,"control":"cell","label":"Edit Filters"}
        {"v":1,"type":"modal.presented","session":"S1","ts":1732290003200,"id":"m1","style":"form_sheet","title":"Edit Filters","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Done","role":"done"}]}
        """

    static let examples: [Example] = [
        Example("a form sheet over a popover", expected: 1, in: [.ios7, .current], events: overPopover),
        Example(
            "a form sheet over a popover (2009 had no popovers)",
            expected: 0,
            in: .edition2009,
            events: overPopover
        ),
        Example(
            "the popover is closed before the modal view opens",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"pad"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"bar_button","label":"Filters"}
                {"v":1,"type":"popover.presented","session":"S1","ts":1732290001100,"id":"p1"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290003000,"control":"cell","label":"Edit Filters"}
                {"v":1,"type":"popover.dismissed","session":"S1","ts":1732290003100,"id":"p1"}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290003200,"id":"m1","style":"form_sheet","title":"Edit Filters","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Done","role":"done"}]}
                """
        ),
        Example(
            "an alert over a popover is allowed",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"pad"}
                {"v":1,"type":"popover.presented","session":"S1","ts":1732290001100,"id":"p1"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290002000,"id":"a1","title":"Filter Not Saved","message":"The name is already in use.","buttons":[{"title":"OK"}]}
                """
        ),
    ]
}
