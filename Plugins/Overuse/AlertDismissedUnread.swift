import RuleKit

/// `alert-dismissed-unread`: people tap alerts away faster than they can read them.
enum AlertDismissedUnread: Rule {
    static let id = "alert-dismissed-unread"
    static let severity = Severity.info
    static let editions = Editions.all
    static let events: [EventType] = [.alertDismissed]
    static let fire = Fire.oncePerSession
    static let languages = Languages.any
    static let minRead = Parameter<Int64>.duration(
        "min_read",
        defaultMs: 1_000,
        minMs: 1,
        "shortest time on screen that counts as read"
    )
    static let count = Parameter<Int64>.int(
        "count",
        default: 3,
        min: 1,
        max: 10_000,
        "quick dismissals that make the session fire"
    )
    static let parameters: [any ParameterDeclaration] = [minRead, count]
    static let summary = """
        The count-th alert of the session dismissed via button less than min_read after it appeared \
        (dismissals via background or programmatic do not count); once per session, about that alert.
        """
    static let guideline = "Show alerts rarely enough that people read them"
    static let source = "2009: Alerts, Action Sheets, and Modal Views; ios7: Alert; current: Alerts"

    /// The per-session count of quick dismissals.
    private static let quickKey: UInt64 = 1

    static func judge(_ call: RuleCall) {
        let minRead = call[Self.minRead]
        let threshold = call[Self.count]
        let event = call.event
        guard event.via == .button, let alert = call.session.dismissed, alert.kind == .alert else { return }
        let shownMs = event.ts - alert.ts
        guard shownMs < minRead else { return }
        let count = call.counterAdd(quickKey, 1)
        guard count >= threshold else { return }
        var evidence = Evidence()
        evidence.add("count", count)
        evidence.add("threshold", threshold)
        evidence.add("min_read_ms", minRead)
        evidence.add("shown_ms", shownMs)
        call.report(
            subject: event.id,
            message: """
                \(count: count, "alert") dismissed by a button less than \(duration: minRead) \
                after appearing (this one after \(duration: shownMs))
                """,
            evidence: evidence,
            events: [alert.presentedRef],
            suggestion: "Show fewer alerts, so that people read the ones that remain"
        )
    }

    static let examples: [Example] = [
        Example(
            "three alerts tapped away within half a second",
            expected: 1,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290010000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290010400,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290060000,"id":"a2","title":"Rate This App?","message":null,"buttons":[{"title":"Not Now","style":"cancel"},{"title":"Rate"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290060300,"id":"a2","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290120000,"id":"a3","title":"New Features Available","message":"Syncing is now faster.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290120500,"id":"a3","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290180000,"id":"a4","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290180200,"id":"a4","button":0,"via":"button"}
                """
        ),
        Example(
            "two quick dismissals and one read alert",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290010000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290010400,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290060000,"id":"a2","title":"Rate This App?","message":null,"buttons":[{"title":"Not Now","style":"cancel"},{"title":"Rate"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290060300,"id":"a2","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290120000,"id":"a3","title":"Delete All Messages?","message":"This cannot be undone.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290124000,"id":"a3","button":0,"via":"button"}
                """
        ),
        Example(
            "quick dismissals by the app or by leaving it do not count",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290010000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290010400,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290060000,"id":"a2","title":"Syncing Paused","message":null,"buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290060100,"id":"a2","button":null,"via":"programmatic"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290120000,"id":"a3","title":"Delete All Messages?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"app.background","session":"S1","ts":1732290120300}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290120300,"id":"a3","button":0,"via":"background"}
                """
        ),
    ]
}
