import AlertText
import RuleKit

/// `alert-error-word`: the word “error” in an alert's text.
enum AlertErrorWord: Rule {
    static let id = "alert-error-word"
    static let rev: UInt32 = 2
    static let severity = Severity.info
    static let editions: Editions = .edition2009
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.localized
    static let summary = """
        The word error, in any case, appears as a whole word in the title or message (Error:, error-free count; \
        errors, erroneous do not); in another language, one of its standard Error titles as a whole word (Fehler), \
        or anywhere in a text of a script written without spaces (エラー); a language without them is not judged; \
        button titles are not read.
        """
    static let guideline = "Avoid the word error anywhere in alert text; describe the actual situation"
    static let source = "2009: Designing an Alert"

    static func judge(_ call: RuleCall) {
        let event = call.event
        switch call.language {
        case .english:
            if let word = errorWord(in: call.slice(event.title)) {
                report(call, field: "title", word: word.string, offset: word.offset)
            } else if let word = errorWord(in: call.slice(event.message)) {
                report(call, field: "message", word: word.string, offset: word.offset)
            }
        case .titled(let titles) where !titles.error.isEmpty:
            if let word = call.slice(event.title).firstTitle(in: titles.error) {
                report(call, field: "title", word: word, offset: nil)
            } else if let word = call.slice(event.message).firstTitle(in: titles.error) {
                report(call, field: "message", word: word, offset: nil)
            }
        case .titled, .untitled:
            call.skipLanguage()
        }
    }

    /// Reports `word` found in `field` (at byte `offset`, when known).
    private static func report(_ call: RuleCall, field: String, word: String, offset: Int?) {
        let event = call.event
        var evidence = Evidence()
        evidence.add("field", field)
        evidence.add("word", word)
        if let offset { evidence.add("offset", offset) }
        call.report(
            subject: event.id,
            message: "The alert \(label: event) uses the word “\(word)” in its \(field)",
            evidence: evidence,
            suggestion: "Describe what went wrong and what to do instead of saying “\(word)”"
        )
    }

    private static func errorWord(in text: TextSlice) -> Word? {
        for word in text.words where word.equals("error") { return word }
        return nil
    }

    private static let errorTitle = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Sync Error","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Unable to Sync","message":"An ERROR occurred: 0x2F.","buttons":[{"title":"OK"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.2: Fehler in a German title, エラー in a Japanese message",
            expected: 2,
            in: .edition2009,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail","locale":"de-DE"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Fehler beim Senden","message":"Der Server ist nicht erreichbar.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290002000,"id":"a2","locale":"ja-JP","title":"送信できません","message":"通信エラーが発生しました。","buttons":[{"title":"OK"}]}
                """
        ),
        Example("error in a title and in a message", expected: 2, in: .edition2009, events: errorTitle),
        Example(
            "error in a title and in a message (only 2009 has the rule)",
            expected: 0,
            in: [.ios7, .current],
            events: errorTitle
        ),
        Example(
            "text that describes the situation, and near misses",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Unable to Sync","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"3 Errors Found","message":"Some rows look erroneous.","buttons":[{"title":"Show Error Log"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
    ]
}
