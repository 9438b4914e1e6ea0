import RuleKit

/// `alert-for-normal-progress`: an alert that only says a task finished normally.
enum AlertForNormalProgress: Rule {
    static let id = "alert-for-normal-progress"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let window = Parameter<Int64>.duration(
        "window",
        defaultMs: 2_000,
        minMs: 1,
        "how soon after a task finished an alert counts as about it"
    )
    static let parameters: [any ParameterDeclaration] = [window]
    static let summary = """
        An alert appears within window after a task.progress finished event (inclusive), and no task of the \
        session reported failed within the same window before the alert (then the alert may be about the failure).
        """
    static let guideline = "Show normal progress with a progress view, not an alert"
    static let source = "2009: Using Alerts; ios7: Alert; current: Alerts"

    static func judge(_ call: RuleCall) {
        let window = call[Self.window]
        let event = call.event
        let session = call.session
        guard let finished = session.lastTaskFinishedTs else { return }
        let sinceFinished = event.ts - finished
        guard sinceFinished >= 0, sinceFinished <= window else { return }
        if let failed = session.lastTaskFailedTs, event.ts - failed <= window { return }
        var evidence = Evidence()
        evidence.add("since_finished_ms", sinceFinished)
        evidence.add("window_ms", window)
        evidence.add("title", event.title)
        call.report(
            subject: event.id,
            message: """
                The alert \(quoted: event.title.isBlank ? event.message : event.title) appeared \
                \(duration: sinceFinished) after a task finished normally, within \(duration: window)
                """,
            evidence: evidence,
            events: [EventRef(type: .taskProgress, ts: finished)],
            suggestion: "Show the progress and the end of a normal task in the app, with a progress view, not an alert"
        )
    }

    static let examples: [Example] = [
        Example(
            "an alert right after a download finished",
            expected: 1,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"task.progress","session":"S1","ts":1732290001000,"task":"download","state":"started"}
                {"v":1,"type":"task.progress","session":"S1","ts":1732290005000,"task":"download","state":"progress"}
                {"v":1,"type":"task.progress","session":"S1","ts":1732290009000,"task":"download","state":"finished"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290009800,"id":"a1","title":"Download Complete","message":"The episode is ready to play.","buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "an alert after one task failed and another finished",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"task.progress","session":"S1","ts":1732290001000,"task":"upload","state":"started"}
                {"v":1,"type":"task.progress","session":"S1","ts":1732290001000,"task":"download","state":"started"}
                {"v":1,"type":"task.progress","session":"S1","ts":1732290008500,"task":"upload","state":"failed"}
                {"v":1,"type":"task.progress","session":"S1","ts":1732290009000,"task":"download","state":"finished"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290009800,"id":"a1","title":"Upload Failed","message":"The photo is too large.","buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "an alert long after a task finished",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"task.progress","session":"S1","ts":1732290001000,"task":"download","state":"started"}
                {"v":1,"type":"task.progress","session":"S1","ts":1732290009000,"task":"download","state":"finished"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290030000,"id":"a1","title":"Storage Almost Full","message":"Remove some episodes.","buttons":[{"title":"OK"}]}
                """
        ),
    ]
}
