import AlertText
import RuleKit

/// `alert-cancel-label`: a cancel button not labeled Cancel.
enum AlertCancelLabel: Rule {
    static let id = "alert-cancel-label"
    static let rev: UInt32 = 3
    static let severity = Severity.warning
    static let editions: Editions = .current
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.localized
    static let summary = """
        An alert with two or more buttons has a cancel button (style cancel, or else a default-style button titled \
        the language's Cancel) whose title is not exactly Cancel (byte for byte: cancel, CANCEL, Cancel. and Not Now \
        all fire); in another language, not exactly one of its standard Cancel titles (Abbrechen) while it is one of \
        them in another case (ABBRECHEN), the English Cancel, Yes, No or OK, or the language's Yes, No or OK (Nein): \
        the suggestion is its first Cancel title; another title there (an app's own translation, Odvolat) and a \
        language without Cancel titles are not judged; a one-button alert is not judged; not in 2009 or ios7, which \
        suggested Cancel without requiring it.
        """
    static let guideline = "Label a button that cancels an alert's action Cancel"
    static let source = "current: Alerts (Alert Buttons)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let buttons = event.buttons
        guard buttons.count >= 2 else { return }
        let locale = call.locale
        let titles: StandardTitles
        switch call.language {
        case .english:
            guard
                let index = buttons.indices.first(where: {
                    buttons.isCancelButton($0, locale: locale) && buttons[$0].title != "Cancel"
                })
            else { return }
            report(call, index: index, title: "Cancel")
            return
        case .titled(let language) where !language.cancel.isEmpty:
            titles = language
        case .titled, .untitled:
            if buttons.cancelIndex(locale: locale) != nil { call.skipLanguage() }
            return
        }
        guard let index = buttons.indices.first(where: { buttons.isCancelButton($0, locale: locale) }) else { return }
        let title = buttons[index].title.string ?? ""
        if titles.cancel.contains(title) { return }
        // Another language's Cancel may be spelled as the table does not know (an app's own
        // translation): judged only when the title is recognizably not it.
        guard StandardTitles.matches(title, titles.cancel) || Self.isRecognizablyWrong(title, titles) else {
            call.skipLanguage()
            return
        }
        report(call, index: index, title: titles.cancel[0])
    }

    /// True when a cancel button titled `title` in another language is recognizably not titled
    /// the language's Cancel: the English Cancel, Yes, No or OK, or the language's Yes, No or OK.
    private static func isRecognizablyWrong(_ title: String, _ titles: StandardTitles) -> Bool {
        StandardTitles.matches(title, englishTitles) || StandardTitles.matches(title, titles.yes)
            || StandardTitles.matches(title, titles.no) || StandardTitles.matches(title, titles.ok)
    }

    /// The English Cancel, Yes, No and OK.
    private static let englishTitles = ["Cancel", "Yes", "No", "OK"]

    /// Reports the cancel button at `index`, which should be titled `title`.
    private static func report(_ call: RuleCall, index: Int, title: String) {
        let event = call.event
        let buttons = event.buttons
        var evidence = Evidence()
        evidence.add("button", index)
        evidence.add("button_title", buttons[index].title)
        evidence.add("suggested_buttons", buttons.indices.map { $0 == index ? title : buttons[$0].title.string ?? "" })
        call.report(
            subject: event.id,
            message: """
                The cancel button of the alert \(label: event) is titled \(quoted: buttons[index].title), \
                not \(title)
                """,
            evidence: evidence,
            suggestion: "Title the cancel button \(quoted: title) instead of \(quoted: buttons[index].title)"
        )
    }

    private static let notNow = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Rate this app?","message":null,"buttons":[{"title":"Not Now","style":"cancel"},{"title":"Rate"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.1: a default-style button titled CANCEL is the cancel button, and not titled Cancel",
            expected: 1,
            in: .current,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this photo?","message":"It is removed from all devices.","buttons":[{"title":"CANCEL"},{"title":"Delete","style":"destructive"}]}
                """
        ),
        Example(
            "v1.1: a default-style button titled Cancel",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this photo?","message":"It is removed from all devices.","buttons":[{"title":"Cancel"},{"title":"Delete","style":"destructive"}]}
                """
        ),
        Example("a cancel button titled Not Now", expected: 1, in: .current, events: notNow),
        Example(
            "v1.2: a German alert whose default-style Abbrechen is its cancel button",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail","locale":"de_DE"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Foto löschen?","message":"Es wird von allen Geräten entfernt.","buttons":[{"title":"Abbrechen"},{"title":"Löschen","style":"destructive"}]}
                """
        ),
        Example(
            "v1.2: a German alert whose cancel button is titled in English",
            expected: 1,
            in: .current,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail","locale":"de-DE"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Foto löschen?","message":"Es wird von allen Geräten entfernt.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Löschen","style":"destructive"}]}
                """
        ),
        Example(
            "v1.2: a cancel button in a language without Cancel titles is not judged",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail","locale":"tlh"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Qagh","message":null,"buttons":[{"title":"mev","style":"cancel"},{"title":"Qaw'","style":"destructive"}]}
                """
        ),
        Example(
            "a cancel button titled Not Now (2009 and ios7 allow it)",
            expected: 0,
            in: [.edition2009, .ios7],
            events: notNow
        ),
        Example(
            "Cancel, and a one-button alert whose only button cancels",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Download finished","message":null,"buttons":[{"title":"Dismiss","style":"cancel"}]}
                """
        ),
    ]
}
