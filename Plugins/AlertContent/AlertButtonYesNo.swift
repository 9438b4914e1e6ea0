import AlertText
import RuleKit

/// `alert-button-yes-no`: buttons titled Yes or No.
enum AlertButtonYesNo: Rule {
    static let id = "alert-button-yes-no"
    static let rev: UInt32 = 2
    static let severity = Severity.warning
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.localized
    static let summary = """
        A button's title is the single word Yes or No in any case, whitespace and punctuation aside (Yes, NO, No!); \
        a longer title such as Yes, Delete does not count; in another language, any of its standard Yes and No \
        titles (Ja, Nein; はい, いいえ; case folded); a language without them is not judged; once per alert, naming \
        every such button.
        """
    static let guideline = "Avoid using Yes or No as button titles; use verbs that describe the result"
    static let source = "ios7: Alert; current: Alerts (Alert Buttons)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        guard !event.buttons.isEmpty else { return }
        let language = call.language
        var cancel = "Cancel"
        switch language {
        case .english:
            break
        case .titled(let titles) where !(titles.yes.isEmpty && titles.no.isEmpty):
            if let first = titles.cancel.first { cancel = first }
        case .titled, .untitled:
            call.skipLanguage()
            return
        }
        // Most alerts have no such button: decided before any array is made.
        guard event.buttons.contains(where: { isYesOrNo(call.slice($0.title), language) }) else { return }
        var offending: [Int] = []
        for (index, button) in event.buttons.enumerated() where isYesOrNo(call.slice(button.title), language) {
            offending.append(index)
        }
        guard !offending.isEmpty else { return }
        var evidence = Evidence()
        evidence.add("buttons", offending)
        evidence.add("titles", texts: offending.count) { event.buttons[offending[$0]].title }
        let names = offending.map { Phrase.quoted(event.buttons[$0].title) }.joined(separator: " and ")
        call.report(
            subject: event.id,
            message: "The alert \(label: event) has \(offending.count == 1 ? "a button" : "buttons") titled \(names)",
            evidence: evidence,
            suggestion: """
                Replace \(names) with verbs that say what each button does, such as “Delete” or “Save”, and \
                title the button that backs out \(quoted: cancel)
                """
        )
    }

    /// True when `title` is Yes or No in `language`: the single English word, or one of the
    /// language's standard Yes and No titles.
    private static func isYesOrNo(_ title: TextSlice, _ language: TextLanguage) -> Bool {
        switch language {
        case .english:
            guard let word = title.onlyWord else { return false }
            return word.equals("yes") || word.equals("no")
        case .titled(let titles):
            return title.isTitle(in: titles.yes) || title.isTitle(in: titles.no)
        case .untitled:
            return false
        }
    }

    private static let yesNo = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this photo?","message":null,"buttons":[{"title":"No","style":"cancel"},{"title":"Yes","style":"destructive"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Save changes?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"YES!"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.2: a German alert with Nein and Ja",
            expected: 1,
            in: [.ios7, .current],
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail","locale":"de-DE"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Foto löschen?","message":null,"buttons":[{"title":"Nein","style":"cancel"},{"title":"Ja","style":"destructive"}]}
                """
        ),
        Example(
            "v1.2: a German alert with Abbrechen and Löschen",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail","locale":"de-DE"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Foto löschen?","message":null,"buttons":[{"title":"Abbrechen","style":"cancel"},{"title":"Löschen","style":"destructive"}]}
                """
        ),
        Example("No and Yes, and YES!", expected: 2, in: [.ios7, .current], events: yesNo),
        Example("No and Yes, and YES! (2009 does not ask)", expected: 0, in: .edition2009, events: yesNo),
        Example(
            "verbs, and titles that only contain yes or no",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this photo?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Rate this app?","message":null,"buttons":[{"title":"No Thanks","style":"cancel"},{"title":"Yes, Rate"}]}
                """
        ),
    ]
}
