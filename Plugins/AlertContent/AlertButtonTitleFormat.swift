import AlertText
import RuleKit

/// `alert-button-title-format`: button titles with ending punctuation or not in title-style.
enum AlertButtonTitleFormat: Rule {
    static let id = "alert-button-title-format"
    static let rev: UInt32 = 2
    static let severity = Severity.info
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.localized
    static let summary = """
        A button's title ends with . ! ? or : (closing quotes looked past; an ellipsis … or ... is not a period), or \
        is not title-style: a lowercase word that is not a minor word after the first, or a title in capitals \
        (CANCEL, DELETE ALL: no lowercase letter and a capitalized word of 4+ letters); OK is fine, as are short \
        abbreviations (PDF), Ok, iCloud and quoted names; once per alert, naming every such button. In another \
        language (or none given and the texts mostly of a non-Latin script) only the ending is judged, with that \
        script's marks too (。 ！ ？ ： ؟ ۔ । …).
        """
    static let guideline = "Use title-style capitalization and no ending punctuation in button titles"
    static let source = "ios7: Alert; current: Alerts (Alert Buttons)"

    /// The button title in title-style capitalization (English only) without ending punctuation.
    static func corrected(_ title: TextSlice, english: Bool = true) -> String {
        let bare = title.trimmingEndingPunctuation
        guard english else { return bare.string }
        return bare.isInCapitals ? TextSlice.with(bare.string.lowercased()) { $0.titleStyled } : bare.titleStyled
    }

    static func judge(_ call: RuleCall) {
        let event = call.event
        let english = call.isEnglish
        // Most alerts have no such button: decided before any array is made.
        guard event.buttons.contains(where: { problem(call.slice($0.title), english: english) != nil }) else { return }
        var offending: [Int] = []
        for (index, button) in event.buttons.enumerated()
        where problem(call.slice(button.title), english: english) != nil {
            offending.append(index)
        }
        guard let first = offending.first else { return }
        var evidence = Evidence()
        evidence.add("buttons", offending)
        evidence.add("titles", texts: offending.count) { event.buttons[offending[$0]].title }
        evidence.add("problems", offending.map { problem(call.slice(event.buttons[$0].title), english: english) ?? "" })
        evidence.add(
            "suggested_buttons",
            event.buttons.map { button -> String in
                problem(call.slice(button.title), english: english) == nil
                    ? button.title.string ?? "" : corrected(call.slice(button.title), english: english)
            }
        )
        let extra: Message = offending.count > 1 ? " (and \(count: offending.count - 1, "more button"))" : ""
        call.report(
            subject: event.id,
            message: """
                The button \(quoted: event.buttons[first].title) of the alert \(label: event) \
                \(problem(call.slice(event.buttons[first].title), english: english) ?? "")\(extra)
                """,
            evidence: evidence,
            suggestion: """
                Title the button \(quoted: corrected(call.slice(event.buttons[first].title), english: english))\(offending.count > 1 ? " (and the others alike)" : "")
                """
        )
    }

    /// What is wrong with a button title, or nil; its capitalization is judged only in English.
    private static func problem(_ title: TextSlice, english: Bool) -> String? {
        if let mark = title.endingMark {
            switch mark {
            case .period, .exclamation, .question, .colon: return "ends with \(mark.symbol)"
            case .ellipsis, .semicolon, .comma: break
            }
        }
        return !english || title.isTitleStyle ? nil : "is not in title-style capitalization"
    }

    private static let badTitles = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Unable to Sync","message":null,"buttons":[{"title":"OK."},{"title":"Try again"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Storage Full","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Manage Storage…"},{"title":"Delete Now!"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Delete Draft?","message":null,"buttons":[{"title":"CANCEL","style":"cancel"},{"title":"Delete","style":"destructive"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.2: Löschen! in German, 削除する。 in Japanese; German capitalization not judged",
            expected: 2,
            in: [.ios7, .current],
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail","locale":"de-DE"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Foto löschen?","message":null,"buttons":[{"title":"Abbrechen","style":"cancel"},{"title":"Löschen!","style":"destructive"}]}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290002000,"id":"a2","locale":"ja-JP","title":"写真を削除しますか？","message":null,"buttons":[{"title":"キャンセル","style":"cancel"},{"title":"削除する。","style":"destructive"}]}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a3","title":"Entwurf löschen?","message":null,"buttons":[{"title":"abbrechen","style":"cancel"},{"title":"Jetzt löschen","style":"destructive"}]}
                """
        ),
        Example("OK. and Try again, Delete Now!, and CANCEL", expected: 3, in: [.ios7, .current], events: badTitles),
        Example(
            "OK. and Try again, Delete Now!, and CANCEL (2009 does not ask)",
            expected: 0,
            in: .edition2009,
            events: badTitles
        ),
        Example(
            "title-style titles, OK, an ellipsis, and an abbreviation",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Unable to Sync","message":null,"buttons":[{"title":"OK"},{"title":"Try Again"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Storage Full","message":null,"buttons":[{"title":"Don’t Allow","style":"cancel"},{"title":"Open in iCloud"},{"title":"Manage Storage…"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Export Note","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Save PDF"}]}
                """
        ),
    ]
}
