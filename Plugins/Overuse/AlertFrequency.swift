import RuleKit

/// `alert-frequency`: too many alerts within a trailing window of event time.
enum AlertFrequency: Rule {
    static let id = "alert-frequency"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerWindow
    static let limit = Parameter<Int64>.int("limit", default: 3, min: 1, max: 10_000, "alerts allowed within the window")
    static let window = Parameter<Int64>.duration("window", defaultMs: 600_000, minMs: 1_000, "the trailing window, in event time")
    static let parameters: [any ParameterDeclaration] = [limit, window]
    static let summary = """
        An alert.presented makes the session's alerts within the trailing window (entries at exactly \
        ts - window still count) exceed limit; the subject is that alert; then quiet for one window.
        """
    static let guideline = "Minimize alerts"
    static let source = "2009: Using Alerts; ios7: Alert; current: Alerts"

    /// The per-session window of alert times.
    private static let windowKey: UInt64 = 1
    /// Counts above this (or limit + 1) are capped in the evidence.
    private static let minimumKeep: Int64 = 32

    static func judge(_ call: RuleCall) {
        let limit = call[Self.limit]
        let window = call[Self.window]
        let event = call.event
        let keep = UInt32(clamping: max(limit + 1, minimumKeep))
        let count = Int64(call.windowPush(windowKey, ts: event.ts, windowMs: window, keep: keep))
        guard count > limit else { return }
        // Within the quiet window after firing, the host would hold the report back: skip it.
        guard call.shouldReport(subject: event.id) else { return }
        var evidence = Evidence()
        evidence.add("count", count)
        evidence.add("limit", limit)
        evidence.add("window_ms", window)
        call.report(
            subject: event.id,
            message: "\(count: count, "alert") within \(duration: window); the limit is \(limit)",
            evidence: evidence,
            quietMs: window
        )
    }

    static let examples: [Example] = [
        Example("four alerts within ten minutes", expected: 1, events: """
            {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290010000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290013000,"id":"a1","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290070000,"id":"a2","title":"Upload Failed","message":"The photo is too large.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290073000,"id":"a2","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290130000,"id":"a3","title":"No Connection","message":"Check the network settings.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290133000,"id":"a3","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290190000,"id":"a4","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            """),
        Example("a fifth alert in the same window stays quiet", expected: 1, events: """
            {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290010000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290011000,"id":"a1","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290020000,"id":"a2","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290021000,"id":"a2","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290030000,"id":"a3","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290031000,"id":"a3","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290040000,"id":"a4","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290041000,"id":"a4","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290050000,"id":"a5","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            """),
        Example("fires again once a whole window has passed", expected: 2, events: """
            {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290000000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290001000,"id":"a1","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290060000,"id":"a2","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290061000,"id":"a2","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290120000,"id":"a3","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290121000,"id":"a3","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290180000,"id":"a4","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290181000,"id":"a4","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290900000,"id":"a5","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290901000,"id":"a5","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290960000,"id":"a6","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290961000,"id":"a6","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732291020000,"id":"a7","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732291021000,"id":"a7","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732291080000,"id":"a8","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            """),
        Example("three alerts within ten minutes", expected: 0, events: """
            {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290010000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290013000,"id":"a1","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290070000,"id":"a2","title":"Upload Failed","message":"The photo is too large.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290073000,"id":"a2","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290130000,"id":"a3","title":"No Connection","message":"Check the network settings.","buttons":[{"title":"OK"}]}
            """),
        Example("four alerts spread over more than ten minutes", expected: 0, events: """
            {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290000000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290250000,"id":"a2","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290252000,"id":"a2","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290500000,"id":"a3","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290502000,"id":"a3","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290750000,"id":"a4","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            """),
    ]
}
