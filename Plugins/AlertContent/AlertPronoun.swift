import AlertText
import RuleKit

/// `alert-pronoun`: alert text that addresses or speaks for the person.
enum AlertPronoun: Rule {
    static let id = "alert-pronoun"
    static let rev: UInt32 = 3
    static let severity = Severity.info
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.english
    static let summary = """
        One of the whole words you, your, yours, you're, you'll, you've, you'd, me, my appears, in any case and \
        with ' or ’ as the apostrophe, in the title, the message or a button title; other forms (yourself, mine) \
        do not count; once per alert.
        """
    static let guideline = "Avoid you, your, me and my in alert text and button titles"
    static let source = "ios7: Alert; current: Alerts (Alert Titles and Messages)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        var field = "title"
        var found = call.slice(event.title).firstPronoun
        if found == nil {
            field = "message"
            found = call.slice(event.message).firstPronoun
        }
        var index = -1
        if found == nil {
            for (position, button) in event.buttons.enumerated() {
                if let word = call.slice(button.title).firstPronoun {
                    found = word
                    index = position
                    break
                }
            }
            field = "button"
        }
        guard let word = found else { return }
        var evidence = Evidence()
        evidence.add("field", field)
        evidence.add("word", word.string)
        if index >= 0 { evidence.add("button", index) }
        let place: Message = index >= 0 ? "the button \(quoted: event.buttons[index].title)" : "its \(field)"
        call.report(
            subject: event.id,
            message: "The alert \(label: event) uses the pronoun “\(word: word)” in \(place)",
            evidence: evidence,
            suggestion: """
                Rephrase \(place) without “\(word: word)”: name the thing or the situation instead of the person
                """
        )
    }

    private static let pronouns = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"You’re Offline","message":null,"buttons":[{"title":"OK"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Rate This App?","message":"It takes a moment.","buttons":[{"title":"Remind Me Later","style":"cancel"},{"title":"Rate"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Storage Full","message":"Delete some of YOUR photos, then try again.","buttons":[{"title":"OK"}]}
        """

    private static let contractions = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Discard this draft?","message":"You’ll lose the changes.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Discard","style":"destructive"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Already downloaded","message":"If you've moved the file, download it again.","buttons":[{"title":"OK"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Leave the call?","message":"You’d have to be invited again.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Leave"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.1: you’ll, you've and you’d, with either apostrophe",
            expected: 3,
            in: [.ios7, .current],
            events: contractions
        ),
        Example("pronouns in a title, a button and a message", expected: 3, in: [.ios7, .current], events: pronouns),
        Example(
            "pronouns in a title, a button and a message (2009 does not ask)",
            expected: 0,
            in: .edition2009,
            events: pronouns
        ),
        Example(
            "impersonal text, and words that only look like pronouns",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":"It is removed from all devices.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Trip to Mexico and Myanmar","message":"Memories for the youth club are ready.","buttons":[{"title":"OK"}]}
                """
        ),
    ]
}
