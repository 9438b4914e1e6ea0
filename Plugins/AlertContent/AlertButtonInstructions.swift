import AlertText
import RuleKit

/// `alert-button-instructions`: alert text that explains which button to tap.
enum AlertButtonInstructions: Rule {
    static let id = "alert-button-instructions"
    static let rev: UInt32 = 3
    static let severity = Severity.info
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.localized
    static let summary = """
        The title or message quotes a button's title (the whole of one quotation in " ", “ ”, ‘ ’, ' ', « » or „ “, \
        ignoring case and punctuation), or has tap, touch, click, press, choose or select followed 1 to 3 words later \
        by a button's title (words compared ignoring case; even “tap Cancel” counts); title and message are read \
        separately; buttons whose titles have no words are skipped; once per alert. In another language, only the \
        quotation: in those marks or the language's own from CLDR (German „ “ and ‚ ‘, Japanese 「 」 and 『 』, Swedish \
        ” ”); a language CLDR gives no marks for is not judged.
        """
    static let guideline = "Don't explain the alert buttons; if you must, use tap and don't quote button titles"
    static let source = "ios7: Alert; current: Alerts (Alert Titles and Messages)"

    /// Whether `text` has a quotation or an instruction verb: what naming a button takes.
    private static func mayNameAButton(_ text: TextSlice) -> Bool {
        for word in text.words where word.quotation != 0 || InstructionVerbs.contains(word) { return true }
        return false
    }

    static func judge(_ call: RuleCall) {
        guard call.isEnglish else {
            judgeQuotations(call)
            return
        }
        let event = call.event
        let title = call.slice(event.title)
        let message = call.slice(event.message)
        // One pass per text first: without a quotation or an instruction verb, neither can name a button.
        let titleMayName = Self.mayNameAButton(title)
        let messageMayName = Self.mayNameAButton(message)
        guard titleMayName || messageMayName else { return }
        for (index, button) in event.buttons.enumerated() {
            let label = call.slice(button.title)
            guard label.firstWord != nil else { continue }
            var how: String?
            var field = "title"
            var verb: String?
            if titleMayName && title.quotes(label) {
                how = "quotes"
            } else if messageMayName && message.quotes(label) {
                how = "quotes"
                field = "message"
            } else if titleMayName, let word = title.instruction(naming: label) {
                how = "instruction"
                verb = word.string
            } else if messageMayName, let word = message.instruction(naming: label) {
                how = "instruction"
                field = "message"
                verb = word.string
            }
            guard let how else { continue }
            report(call, index: index, field: field, how: how, verb: verb)
            return
        }
    }

    /// In another language: a title or message that quotes a button's title, in the tokenizer's
    /// marks or the language's (`RuleCall.quotationMarks`). The instruction verbs are English.
    private static func judgeQuotations(_ call: RuleCall) {
        let event = call.event
        guard let marks = call.quotationMarks else {
            if event.title.string != nil || event.message.string != nil { call.skipLanguage() }
            return
        }
        let title = call.slice(event.title)
        let message = call.slice(event.message)
        for (index, button) in event.buttons.enumerated() {
            let label = call.slice(button.title)
            guard label.firstWord != nil else { continue }
            if title.quotes(label) || title.quotes(label, between: marks) {
                report(call, index: index, field: "title", how: "quotes", verb: nil)
                return
            }
            if message.quotes(label) || message.quotes(label, between: marks) {
                report(call, index: index, field: "message", how: "quotes", verb: nil)
                return
            }
        }
    }

    /// Reports the button at `index`, named in `field` by a quotation or an instruction `verb`.
    private static func report(_ call: RuleCall, index: Int, field: String, how: String, verb: String?) {
        let event = call.event
        let button = event.buttons[index]
        var evidence = Evidence()
        evidence.add("button", index)
        evidence.add("button_title", button.title)
        evidence.add("field", field)
        evidence.add("kind", how)
        if let verb { evidence.add("verb", verb) }
        let what: Message =
            if let verb {
                "tells the person to \(verb.lowercased()) the button \(quoted: button.title)"
            } else {
                "puts the button title \(quoted: button.title) in quotation marks"
            }
        // Outside English the advice names no English verb.
        let suggestion: Message =
            if call.isEnglish {
                """
                Remove the explanation of the button \(quoted: button.title): clear titles need none; if one is \
                needed, write tap \(button.title) without quotation marks
                """
            } else {
                """
                Remove the explanation of the button \(quoted: button.title): clear titles need none; if one is \
                needed, name the button without quotation marks
                """
            }
        call.report(
            subject: event.id,
            message: "The \(field) of the alert \(label: event) \(what)",
            evidence: evidence,
            suggestion: suggestion
        )
    }

    private static let instructions = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Photo Library Full","message":"Tap Manage to free up space.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Manage"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Delete Recording?","message":"Choose “Keep” to save it for later.","buttons":[{"title":"Keep","style":"cancel"},{"title":"Delete","style":"destructive"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Press the OK button","message":null,"buttons":[{"title":"OK"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290006000,"id":"a3","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290007000,"id":"a4","title":"Update Available","message":"Select 'Don’t Allow' to skip it.","buttons":[{"title":"Don’t Allow","style":"cancel"},{"title":"Install"}]}
        """

    static let examples: [Example] = [
        Example(
            "a tap instruction, quoted titles, and press the OK button",
            expected: 4,
            in: [.ios7, .current],
            events: instructions
        ),
        Example(
            "a tap instruction, quoted titles, and press the OK button (2009 has no rule)",
            expected: 0,
            in: .edition2009,
            events: instructions
        ),
        Example(
            "v1.4: a button's title quoted in German „ “, Japanese 「 」 and Swedish ” ”; a German tap instruction without quotation marks is not judged",
            expected: 3,
            in: [.ios7, .current],
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","locale":"de-DE"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Aufnahme löschen?","message":"Tippen Sie auf „Löschen“, um sie zu entfernen.","buttons":[{"title":"Abbrechen","style":"cancel"},{"title":"Löschen","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"locale":"ja-JP","id":"a2","title":"録音を削除しますか?","message":"「削除」をタップすると消去されます。","buttons":[{"title":"キャンセル","style":"cancel"},{"title":"削除","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"locale":"sv-SE","id":"a3","title":"Radera inspelningen?","message":"Tryck på ”Radera” för att ta bort den.","buttons":[{"title":"Avbryt","style":"cancel"},{"title":"Radera","style":"destructive"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290006000,"id":"a3","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290007000,"id":"a4","title":"Aufnahme löschen?","message":"Tippen Sie auf Löschen, um „Meine Aufnahme“ zu entfernen.","buttons":[{"title":"Abbrechen","style":"cancel"},{"title":"Löschen","style":"destructive"}]}
                """
        ),
        Example(
            "text that does not explain the buttons",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Allow “Maps” to use location?","message":"Your location appears on the map.","buttons":[{"title":"Don’t Allow","style":"cancel"},{"title":"Allow"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":1,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Photo Library Full","message":"Tap the photos you no longer need, then delete them.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Delete “View All”?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"View"}]}
                """
        ),
    ]
}
