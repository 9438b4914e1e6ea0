import RuleKit

/// `modal-current-context-compact`: a current-context modal in a compact environment.
enum ModalCurrentContextCompact: Rule {
    static let id = "modal-current-context-compact"
    static let severity = Severity.warning
    static let editions = Editions.current
    static let events: [EventType] = [.modalPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let summary = """
        A modal with style current_context or over_current_context is presented in a compact size class: \
        the modal's own size_class, else the session's (compact by default on a phone).
        """
    static let guideline = "In a compact size class, present modal content as a sheet, not in the current context"
    static let source = "current: Modality"

    static func judge(_ call: RuleCall) {
        let event = call.event
        guard let style = event.style, style == .currentContext || style == .overCurrentContext else { return }
        let own = event.sizeClass
        let sizeClass = own ?? call.session.sizeClass
        guard sizeClass == .compact else { return }
        var evidence = Evidence()
        evidence.add("style", style.name)
        evidence.add("size_class", sizeClass.name)
        evidence.add("size_class_from", own == nil ? "session" : "modal")
        call.report(
            subject: event.id,
            message: "The modal view \(label: event) uses \(style.name) in a compact size class; present it as a sheet",
            evidence: evidence,
            suggestion: "Present the modal view as a sheet or full screen in a compact size class"
        )
    }

    private static let phone = """
        {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"phone"}
        {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","style":"current_context","title":"Filters","buttons":[{"title":"Done","role":"done"}]}
        {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290002000,"id":"m1","via":"button","button":0}
        {"v":1,"type":"modal.presented","session":"S1","ts":1732290003000,"id":"m2","style":"over_current_context","title":"Sort","buttons":[{"title":"Done","role":"done"}]}
        """

    static let examples: [Example] = [
        Example("current-context modal views on a phone", expected: 2, in: .current, events: phone),
        Example(
            "current-context modal views on a phone (older editions)",
            expected: 0,
            in: [.edition2009, .ios7],
            events: phone
        ),
        Example(
            "a compact modal in a regular pad session",
            expected: 1,
            in: .current,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"pad"}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","style":"current_context","size_class":"compact","title":"Filters","buttons":[{"title":"Done","role":"done"}]}
                """
        ),
        Example(
            "current context on a pad, and a full-screen modal on a phone",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"pad"}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","style":"current_context","title":"Filters","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"session.start","session":"S2","ts":1732290002000,"app":"com.example.app","device":"phone"}
                {"v":1,"type":"modal.presented","session":"S2","ts":1732290003000,"id":"m1","style":"full_screen","title":"Filters","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.presented","session":"S2","ts":1732290004000,"id":"m2","style":"current_context","size_class":"regular","title":"Sort","buttons":[{"title":"Done","role":"done"}]}
                """
        ),
    ]
}
