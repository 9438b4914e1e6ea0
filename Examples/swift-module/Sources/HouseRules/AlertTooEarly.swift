import RuleKit

/// `house-alert-too-early`: an alert presented within the first seconds of a session,
/// before the person could have done anything. A house rule (the HIG catalogue has no
/// such rule): a team that wants no alert at launch ships it in its own module.
enum AlertTooEarly: Rule {
    static let id = "house-alert-too-early"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject

    /// How long after the session's first event an alert counts as too early.
    static let grace = Parameter<Int64>.duration(
        "grace",
        defaultMs: 2_000,
        minMs: 1,
        maxMs: 600_000,
        "an alert this soon after the session started fires"
    )
    static let parameters: [any ParameterDeclaration] = [grace]

    static let summary = """
        An alert.presented less than grace after the session's first event (an alert at exactly grace does \
        not count); apps listed in the module setting exempt_apps are skipped.
        """
    static let guideline = "House rule: no alert before the person could act"
    static let source = "house: launch experience"

    static let examples: [Example] = [
        Example(
            "an alert 500 ms into the session",
            expected: 1,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290000500,"id":"a1","title":"Rate This App","buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "an alert at exactly the grace period",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290002000,"id":"a1","title":"Sync Failed","buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "an alert after the person acted, later on",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290004000,"control":"button","label":"Delete"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a1","title":"Delete Draft?","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
                """
        ),
        Example(
            "two early alerts fire twice, one per alert",
            expected: 2,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290000100,"id":"a1","title":"Welcome","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290000900,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a2","title":"Allow Notifications","buttons":[{"title":"OK"}]}
                """
        ),
    ]

    static func judge(_ call: RuleCall) {
        let event = call.event
        let grace = call[Self.grace]
        let sinceStart = event.ts - call.session.startedTs
        guard sinceStart < grace else { return }
        if let settings = call.moduleState(as: HouseSettings.self), !settings.exemptApps.isEmpty,
            let app = call.session.app.string, settings.exemptApps.contains(app)
        {
            return
        }
        var evidence = Evidence()
        evidence.add("since_start_ms", sinceStart)
        evidence.add("grace_ms", grace)
        call.report(
            subject: event.id,
            message:
                "Alert \(Phrase.quoted(event.title)) appeared \(Phrase.duration(sinceStart)) into the session; the house rule allows none in the first \(Phrase.duration(grace))",
            evidence: evidence
        )
    }
}
