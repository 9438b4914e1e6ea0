import RuleKit

/// `repeated-alert`: the same alert text, again and again in one session.
enum RepeatedAlert: Rule {
    static let id = "repeated-alert"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerKey
    static let languages = Languages.any
    static let limit = Parameter<Int64>.int(
        "limit",
        default: 2,
        min: 1,
        max: 10_000,
        "presentations of one alert text allowed per session"
    )
    static let parameters: [any ParameterDeclaration] = [limit]
    static let summary = """
        An alert whose title and message (each trimmed of whitespace and lowercased; null counts as empty) \
        equal earlier ones' is presented more than limit times in the session; once per distinct text; \
        alerts with neither title nor message are not counted.
        """
    static let guideline = "Don't alert about the same problem again and again; show it in the app"
    static let source = "2009: Using Alerts; ios7: Alert; current: Alerts"

    /// Separates title from message in the hash (0xFF never occurs in UTF-8).
    private static let separatorByte: UInt8 = 0xFF
    /// Separates title from message in the report key.
    private static let separator = "\u{1F}"

    static func judge(_ call: RuleCall) {
        let limit = call[Self.limit]
        let event = call.event
        let title = event.title.trimmed
        let message = event.message.trimmed
        guard !(title.isEmpty && message.isEmpty) else { return }
        var hasher = FNV1a()
        title.hashLowercased(into: &hasher)
        hasher.add(separatorByte)
        message.hashLowercased(into: &hasher)
        let count = call.counterAdd(hasher.value, 1)
        guard count > limit else { return }
        var evidence = Evidence()
        evidence.add("count", count)
        evidence.add("limit", limit)
        evidence.add("title", event.title)
        evidence.add("message", event.message)
        let shown = title.isEmpty ? Phrase.quoted(message) : Phrase.quoted(title)
        call.report(
            subject: event.id,
            message: "The alert \(shown) has appeared \(count: count, "time") in this session; the limit is \(limit)",
            evidence: evidence,
            key: title.lowercased + separator + message.lowercased,
            suggestion: "Show this alert once, and show the state it reports in the app rather than alerting again"
        )
    }

    static let examples: [Example] = [
        Example(
            "the same alert three times, in different case and spacing",
            expected: 1,
            events: ExampleEvents.stream(
                ExampleEvents.alert(1, at: 10_000, shownMs: 2_000),
                ExampleEvents.alert(2, at: 900_000, title: "sync failed ", shownMs: 2_000),
                ExampleEvents.alert(
                    3,
                    at: 1_800_000,
                    title: "  SYNC FAILED",
                    message: "The server could not be reached. ",
                    shownMs: 2_000
                ),
                ExampleEvents.alert(4, at: 2_700_000, shownMs: nil)
            )
        ),
        Example(
            "two texts, each three times",
            expected: 2,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290010000,"id":"a1","title":"Sync Failed","message":null,"buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290012000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290020000,"id":"a2","title":null,"message":"Storage is almost full.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290022000,"id":"a2","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290030000,"id":"a3","title":"Sync Failed","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290032000,"id":"a3","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290040000,"id":"a4","message":"Storage is almost full.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290042000,"id":"a4","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290050000,"id":"a5","title":"Sync Failed","message":"","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290052000,"id":"a5","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290060000,"id":"a6","title":"","message":"Storage is almost full.","buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "the same alert twice, and another one once",
            expected: 0,
            events: ExampleEvents.stream(
                ExampleEvents.alert(1, at: 10_000, shownMs: 2_000),
                ExampleEvents.alert(2, at: 20_000, shownMs: 2_000),
                ExampleEvents.alert(3, at: 30_000, message: "The photo library is full.", shownMs: nil)
            )
        ),
        Example(
            "the same text three times, in three sessions",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290010000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290012000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"session.end","session":"S1","ts":1732290020000}
                {"v":1,"type":"session.start","session":"S2","ts":1732290030000,"app":"com.example.app"}
                {"v":1,"type":"alert.presented","session":"S2","ts":1732290040000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S2","ts":1732290042000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"session.end","session":"S2","ts":1732290050000}
                {"v":1,"type":"session.start","session":"S3","ts":1732290060000,"app":"com.example.app"}
                {"v":1,"type":"alert.presented","session":"S3","ts":1732290070000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                """
        ),
    ]
}
