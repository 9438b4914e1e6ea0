import AlertText
import RuleKit

/// `alert-button-title-length`: button titles longer than a word or two.
enum AlertButtonTitleLength: Rule {
    static let id = "alert-button-title-length"
    static let rev: UInt32 = 2
    static let severity = Severity.info
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.localized
    static let maxWords = Parameter<Int64>.int(
        "max_words",
        default: 2,
        min: 1,
        max: 1000,
        "words a button title may have"
    )
    static let parameters: [any ParameterDeclaration] = [maxWords]
    static let summary = """
        A button's title has more than max_words words (runs of letters, digits and apostrophes: Don’t Allow is 2, \
        Wi-Fi Settings is 3, emoji are not words); once per alert, naming every such button. A title mostly of a \
        script written without spaces (Han, Kana, Thai, …) has no words to count: it is not judged.
        """
    static let guideline = "Give alert buttons short titles of one or two words"
    static let source = "ios7: Alert; current: Alerts (Alert Buttons)"

    static func judge(_ call: RuleCall) {
        let limit = Int(call[Self.maxWords])
        let event = call.event
        if !call.isEnglish, event.buttons.contains(where: { call.slice($0.title).isMostlySpaceless }) {
            call.skipLanguage()
        }
        // Most alerts have no such button: decided before any array is made.
        guard event.buttons.contains(where: { isTooLong(call.slice($0.title), limit) }) else { return }
        var offending: [Int] = []
        for (index, button) in event.buttons.enumerated() where isTooLong(call.slice(button.title), limit) {
            offending.append(index)
        }
        guard let first = offending.first else { return }
        var evidence = Evidence()
        evidence.add("buttons", offending)
        evidence.add("words", offending.map { call.slice(event.buttons[$0].title).wordCount })
        evidence.add("max_words", limit)
        let words = call.slice(event.buttons[first].title).wordCount
        let extra: Message = offending.count > 1 ? " (and \(count: offending.count - 1, "more button"))" : ""
        call.report(
            subject: event.id,
            message: """
                The button \(quoted: event.buttons[first].title) of the alert \(label: event) has \
                \(count: words, "word"); the limit is \(limit)\(extra)
                """,
            evidence: evidence,
            suggestion: """
                Shorten the button title \(quoted: event.buttons[first].title) to \(limit) words or fewer that \
                name its result, such as “View All” or “Reply”
                """
        )
    }

    /// True when `title` has more than `limit` words and is not mostly of a script without spaces.
    private static func isTooLong(_ title: TextSlice, _ limit: Int) -> Bool {
        title.hasMoreWords(than: limit) && !title.isMostlySpaceless
    }

    private static let longTitles = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Rate This App?","message":null,"buttons":[{"title":"Remind Me Later","style":"cancel"},{"title":"Rate"}]}
        """

    static let examples: [Example] = [
        Example("a three-word button", expected: 1, in: [.ios7, .current], events: longTitles),
        Example("a three-word button (2009 sets no length)", expected: 0, in: .edition2009, events: longTitles),
        Example(
            "two-word titles, with an apostrophe and an emoji",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Allow Notifications?","message":null,"buttons":[{"title":"Don’t Allow","style":"cancel"},{"title":"Allow 🔔 Now"}]}
                """
        ),
    ]
}
