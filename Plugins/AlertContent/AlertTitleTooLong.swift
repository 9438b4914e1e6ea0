import AlertText
import RuleKit

/// `alert-title-too-long`: a title too long to read at a glance.
enum AlertTitleTooLong: Rule {
    static let id = "alert-title-too-long"
    static let rev: UInt32 = 2
    static let severity = Severity.info
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.localized
    static let maxChars = Parameter<Int64>.int(
        "max_chars",
        default: 40,
        min: 1,
        max: 4096,
        "characters an alert title may have"
    )
    static let parameters: [any ParameterDeclaration] = [maxChars]
    static let summary = """
        The title, as sent, has more than max_chars characters, counted as a person sees them (Swift Characters: \
        é, a flag or a family emoji is one; UTF-8 bytes do not matter), an East Asian wide or full-width one (Han, \
        Kana, Hangul, full-width forms) counting as two.
        """
    static let guideline = "Keep the title short enough to display on a single line"
    static let source = "ios7: Alert; current: Alerts (Alert Titles and Messages)"

    static func judge(_ call: RuleCall) {
        let limit = Int(call[Self.maxChars])
        let event = call.event
        let title = call.slice(event.title)
        guard title.hasGreaterDisplayLength(than: limit) else { return }
        let characters = title.displayLength
        var evidence = Evidence()
        evidence.add("characters", characters)
        evidence.add("max_chars", limit)
        evidence.add("title", event.title)
        call.report(
            subject: event.id,
            message:
                "The alert title \(quoted: event.title) has \(characters) characters\(title.hasWideCharacters ? ", a wide character counting as two" : ""); the limit is \(limit)",
            evidence: evidence,
            suggestion: """
                Shorten the title to \(limit) characters or fewer so it fits on one line, and move the details \
                into the message
                """
        )
    }

    private static let longTitle = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Unable to Download the Requested Item Now","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Retry"}]}
        """

    static let examples: [Example] = [
        Example("a 41-character title", expected: 1, in: [.ios7, .current], events: longTitle),
        Example("a 41-character title (2009 sets no length)", expected: 0, in: .edition2009, events: longTitle),
        Example(
            "titles of 40 characters (one of 41 bytes), and 24 characters of 216 bytes",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Unable to Download the Requested Episode","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Retry"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"The Café Could Not Be Added to Favorites","message":null,"buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Backup Complete 👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦","message":null,"buttons":[{"title":"OK"}]}
                """
        ),
    ]
}
