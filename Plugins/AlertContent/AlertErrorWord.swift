import AlertText
import RuleKit

/// `alert-error-word`: the word “error” in an alert's text.
enum AlertErrorWord: Rule {
    static let id = "alert-error-word"
    static let severity = Severity.info
    static let editions: Editions = .edition2009
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let summary = """
        The word error, in any case, appears as a whole word in the title or message (Error:, error-free count; \
        errors, erroneous do not); button titles are not read.
        """
    static let guideline = "Avoid the word error anywhere in alert text; describe the actual situation"
    static let source = "2009: Designing an Alert"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let field: String
        let found: Word
        if let word = errorWord(in: call.slice(event.title)) {
            field = "title"
            found = word
        } else if let word = errorWord(in: call.slice(event.message)) {
            field = "message"
            found = word
        } else {
            return
        }
        var evidence = Evidence()
        evidence.add("field", field)
        evidence.add("word", found.string)
        evidence.add("offset", found.offset)
        call.report(
            subject: event.id,
            message: "The alert \(label: event) uses the word “\(found.string)” in its \(field)",
            evidence: evidence,
            suggestion: "Describe what went wrong and what to do instead of saying “\(found.string)”"
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
        Example("error in a title and in a message", expected: 2, in: .edition2009, events: errorTitle),
        Example("error in a title and in a message (only 2009 has the rule)", expected: 0, in: [.ios7, .current], events: errorTitle),
        Example("text that describes the situation, and near misses", expected: 0, events: """
            \(ExampleEvents.sessionStart)
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Unable to Sync","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"3 Errors Found","message":"Some rows look erroneous.","buttons":[{"title":"Show Error Log"},{"title":"Cancel","style":"cancel"}]}
            """),
    ]
}
