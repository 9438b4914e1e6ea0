import RuleKit

/// `modal-depth`: modal views stacked too deep.
enum ModalDepth: Rule {
    static let id = "modal-depth"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.modalPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let maxDepth = Parameter<Int64>.int(
        "max_depth",
        default: 2,
        min: 1,
        max: 1_000,
        "modal views allowed on the stack at once"
    )
    static let parameters: [any ParameterDeclaration] = [maxDepth]
    static let summary = """
        A modal.presented makes the modal depth (modal views on the stack; alerts, sheets and popovers \
        excluded) exceed max_depth; every presentation past the limit is its own subject.
        """
    static let guideline = "Keep modal tasks simple, short and narrowly focused"
    static let source = "2009: Using Modal Views; ios7: Modal View; current: Modality"

    static func judge(_ call: RuleCall) {
        let maxDepth = call[Self.maxDepth]
        let session = call.session
        let depth = Int64(session.modalDepth)
        guard depth > maxDepth else { return }
        let event = call.event
        var below: [EventRef] = []
        var ids: [String] = []
        for entry in session.stack where entry.kind == .modal {
            ids.append(entry.id.string ?? "")
            if !entry.id.equals(event.id) { below.append(entry.presentedRef) }
        }
        var evidence = Evidence()
        evidence.add("depth", depth)
        evidence.add("max_depth", maxDepth)
        evidence.add("modals", ids)
        call.report(
            subject: event.id,
            message: "The modal view \(label: event) makes the modal depth \(depth); the limit is \(maxDepth)",
            evidence: evidence,
            events: below,
            suggestion: "Finish or dismiss the modal task below before presenting another modal view over it"
        )
    }

    static let examples: [Example] = [
        Example(
            "three modal views on top of each other",
            expected: 1,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","style":"page_sheet","title":"New Event","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Add","role":"done"}]}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290005000,"id":"m2","style":"page_sheet","title":"Invitees","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290009000,"id":"m3","style":"page_sheet","title":"Contacts","buttons":[{"title":"Cancel","role":"cancel"}]}
                """
        ),
        Example(
            "four modal views deep: two presentations past the limit",
            expected: 2,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","title":"New Event","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290005000,"id":"m2","title":"Invitees","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290009000,"id":"m3","title":"Contacts","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290013000,"id":"m4","title":"Contact Details","buttons":[{"title":"Done","role":"done"}]}
                """
        ),
        Example(
            "two modal views, an alert and a sheet on top",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","title":"New Event","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290005000,"id":"m2","title":"Invitees","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"user.action","session":"S1","ts":1732290008000,"control":"bar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290008100,"id":"sh1","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290009000,"id":"a1","title":"Link Copied","message":null,"buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "a third modal view after one was dismissed",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","title":"New Event","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290005000,"id":"m2","title":"Invitees","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290007000,"id":"m2","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290009000,"id":"m3","title":"Repeat","buttons":[{"title":"Done","role":"done"}]}
                """
        ),
    ]
}
