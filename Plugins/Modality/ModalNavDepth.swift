import RuleKit

/// `modal-nav-depth`: a deep navigation hierarchy inside a modal view.
enum ModalNavDepth: Rule {
    static let id = "modal-nav-depth"
    static let severity = Severity.info
    static let editions = Editions.current
    static let events: [EventType] = [.navPush]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let maxPushes = Parameter<Int64>.int(
        "max_pushes",
        default: 3,
        min: 0,
        max: 1_000,
        "screens pushed inside one modal view, net of pops"
    )
    static let parameters: [any ParameterDeclaration] = [maxPushes]
    static let summary = """
        While a modal view is topmost, nav.push minus nav.pop since it appeared (the host's nav_depth, \
        counted only while it is topmost, never below 0) exceeds max_pushes; once per modal id.
        """
    static let guideline = "Avoid a hierarchy of views inside a modal task"
    static let source = "current: Modality"

    static func judge(_ call: RuleCall) {
        let maxPushes = call[Self.maxPushes]
        guard let top = call.session.top, top.kind == .modal else { return }
        let depth = Int64(top.navDepth)
        guard depth > maxPushes else { return }
        var evidence = Evidence()
        evidence.add("nav_depth", depth)
        evidence.add("max_pushes", maxPushes)
        evidence.add("screen", call.event.screen)
        call.report(
            subject: top.id,
            message: """
                The modal view \(quoted: top.id) has \(count: depth, "screen") pushed inside it; \
                the limit is \(maxPushes)
                """,
            evidence: evidence,
            events: [top.presentedRef],
            suggestion: "Keep the modal task short: move the deeper screens out of the modal view or flatten them"
        )
    }

    private static let fivePushes = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","style":"page_sheet","title":"Settings","buttons":[{"title":"Done","role":"done"}]}
        {"v":1,"type":"nav.push","session":"S1","ts":1732290002000,"screen":"Account"}
        {"v":1,"type":"nav.push","session":"S1","ts":1732290003000,"screen":"Privacy"}
        {"v":1,"type":"nav.push","session":"S1","ts":1732290004000,"screen":"Blocked"}
        {"v":1,"type":"nav.push","session":"S1","ts":1732290005000,"screen":"Add Blocked"}
        {"v":1,"type":"nav.push","session":"S1","ts":1732290006000,"screen":"Contacts"}
        """

    static let examples: [Example] = [
        Example("five screens deep inside a modal view", expected: 1, in: .current, events: fivePushes),
        Example(
            "five screens deep inside a modal view (older editions)",
            expected: 0,
            in: [.edition2009, .ios7],
            events: fivePushes
        ),
        Example(
            "pops keep the hierarchy shallow",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"modal.presented","session":"S1","ts":1732290001000,"id":"m1","title":"Settings","buttons":[{"title":"Done","role":"done"}]}
                {"v":1,"type":"nav.push","session":"S1","ts":1732290002000,"screen":"Account"}
                {"v":1,"type":"nav.push","session":"S1","ts":1732290003000,"screen":"Privacy"}
                {"v":1,"type":"nav.pop","session":"S1","ts":1732290004000,"screen":"Privacy"}
                {"v":1,"type":"nav.push","session":"S1","ts":1732290005000,"screen":"Notifications"}
                {"v":1,"type":"nav.push","session":"S1","ts":1732290006000,"screen":"Sounds"}
                """
        ),
        Example(
            "a deep hierarchy outside any modal view",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"nav.push","session":"S1","ts":1732290002000,"screen":"Folders"}
                {"v":1,"type":"nav.push","session":"S1","ts":1732290003000,"screen":"Inbox"}
                {"v":1,"type":"nav.push","session":"S1","ts":1732290004000,"screen":"Thread"}
                {"v":1,"type":"nav.push","session":"S1","ts":1732290005000,"screen":"Message"}
                {"v":1,"type":"nav.push","session":"S1","ts":1732290006000,"screen":"Attachment"}
                """
        ),
    ]
}
