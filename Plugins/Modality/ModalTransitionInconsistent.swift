import RuleKit

/// `modal-transition-inconsistent`: an app's modal views use too many transitions.
enum ModalTransitionInconsistent: Rule {
    static let id = "modal-transition-inconsistent"
    static let severity = Severity.info
    static let editions = Editions.all
    static let events: [EventType] = [.modalPresented]
    static let fire = Fire.oncePerAppValue
    static let languages = Languages.any
    static let maxStyles = Parameter<Int64>.int(
        "max_styles",
        default: 2,
        min: 1,
        max: 5,
        "distinct transitions an app's modal views may use"
    )
    static let parameters: [any ParameterDeclaration] = [maxStyles]
    static let summary = """
        An app's modal views, across all its sessions, use more than max_styles distinct transitions; fires on \
        each new transition past the limit (once per app and transition, about the modal that used it); \
        a modal.presented without a transition is not counted.
        """
    static let guideline = "Use consistent modal transition styles throughout the app"
    static let source = "2009: Designing a Modal View; ios7: Modal View; current: Modality"

    /// App counter: transitions seen so far.
    private static let distinctKey: UInt64 = 1
    /// App counter per transition: how many times it was claimed first (1 = this call saw it first).
    private static func seenKey(_ transition: Transition) -> UInt64 { 100 + UInt64(transition.rawValue) }
    /// App counter per transition: its rank in order of first use (1-based), 0 while unknown.
    private static func rankKey(_ transition: Transition) -> UInt64 { 200 + UInt64(transition.rawValue) }

    static func judge(_ call: RuleCall) {
        let maxStyles = call[Self.maxStyles]
        let event = call.event
        guard let transition = event.transition else { return }
        var rank = call.counterAdd(rankKey(transition), scope: .app)
        if rank == 0, call.counterAdd(seenKey(transition), 1, scope: .app) == 1 {
            rank = call.counterAdd(distinctKey, 1, scope: .app)
            call.counterAdd(rankKey(transition), rank, scope: .app)
        }
        guard rank > maxStyles else { return }
        // Once per transition: after the first report the host holds the rest back, so skip the evidence.
        guard call.shouldReport(subject: event.id, key: transition.name) else { return }
        let distinct = call.counterAdd(distinctKey, scope: .app)
        var ranked: [(Int64, String)] = []
        for other in Transition.allCases {
            let otherRank = call.counterAdd(rankKey(other), scope: .app)
            if otherRank > 0 { ranked.append((otherRank, other.name)) }
        }
        let names = ranked.sorted { $0.0 < $1.0 }.map(\.1)
        var evidence = Evidence()
        evidence.add("transition", transition.name)
        evidence.add("distinct", distinct)
        evidence.add("max_styles", maxStyles)
        evidence.add("transitions", names)
        call.report(
            subject: event.id,
            message: """
                The modal view \(label: event) uses \(transition.name), the app's \
                \(ordinal: rank) modal transition; the limit is \(maxStyles)
                """,
            evidence: evidence,
            key: transition.name,
            suggestion: "Use one transition for the app's modal views"
        )
    }

    static let examples: [Example] = [
        Example(
            "three transitions in one session",
            expected: 1,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","transition":"cover_vertical","title":"New Note","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290002000,"id":"m1","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290003000,"id":"m2","transition":"flip_horizontal","title":"Settings","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290004000,"id":"m2","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290005000,"id":"m3","transition":"cross_dissolve","title":"Photo","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290006000,"id":"m3","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290007000,"id":"m4","transition":"cross_dissolve","title":"Photo","buttons":[{"title":"Done","role":"done"}]}
                """
        ),
        Example(
            "four transitions across two sessions of one app",
            expected: 2,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","transition":"cover_vertical","title":"New Note","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290002000,"id":"m1","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290003000,"id":"m2","transition":"flip_horizontal","title":"Settings","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290004000,"id":"m2","via":"button","button":0}
                {"v":1,"type":"session.end","session":"S1","ts":1732290005000}
                {"v":1,"type":"session.start","session":"S2","ts":1732290010000,"app":"com.example.app"}
                {"v":1,"type":"modal.presented","session":"S2","ts":1732290011000,"id":"m1","transition":"cross_dissolve","title":"Photo","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.dismissed","session":"S2","ts":1732290012000,"id":"m1","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S2","ts":1732290013000,"id":"m2","transition":"partial_curl","title":"Map Options","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.dismissed","session":"S2","ts":1732290014000,"id":"m2","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S2","ts":1732290015000,"id":"m3","transition":"cross_dissolve","title":"Photo","buttons":[{"title":"Done","role":"done"}]}
                """
        ),
        Example(
            "two transitions, used again and again, and modal views that do not say",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","transition":"cover_vertical","title":"New Note","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290002000,"id":"m1","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290003000,"id":"m2","transition":"flip_horizontal","title":"Settings","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290004000,"id":"m2","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290005000,"id":"m3","title":"Photo","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290006000,"id":"m3","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290007000,"id":"m4","transition":"cover_vertical","title":"New Note","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290008000,"id":"m4","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290009000,"id":"m5","transition":"flip_horizontal","title":"Settings","buttons":[{"title":"Done","role":"done"}]}
                """
        ),
        Example(
            "two transitions in each of two apps",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.notes"}
                {"v":1,"type":"session.start","session":"S2","ts":1732290000000,"app":"com.example.photos"}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","transition":"cover_vertical","title":"New Note","buttons":[{"title":"Cancel","role":"cancel"}]}
                {"v":1,"type":"modal.presented","session":"S2","ts":1732290001000,"id":"m1","transition":"cross_dissolve","title":"Photo","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290002000,"id":"m1","via":"button","button":0}
                {"v":1,"type":"modal.dismissed","session":"S2","ts":1732290002000,"id":"m1","via":"button","button":0}
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290003000,"id":"m2","transition":"flip_horizontal","title":"Settings","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"modal.presented","session":"S2","ts":1732290003000,"id":"m2","transition":"partial_curl","title":"Map Options","buttons":[{"title":"Done","role":"done"}]}
                """
        ),
    ]
}
