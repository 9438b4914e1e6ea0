import AlertText
import RuleKit

/// `alert-message-too-long`: a message that would scroll.
enum AlertMessageTooLong: Rule {
    static let id = "alert-message-too-long"
    static let rev: UInt32 = 2
    static let severity = Severity.info
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.localized
    static let maxChars = Parameter<Int64>.int(
        "max_chars",
        default: 120,
        min: 1,
        max: 4096,
        "characters an alert message may have"
    )
    static let parameters: [any ParameterDeclaration] = [maxChars]
    static let summary = """
        The message, as sent, has more than max_chars characters, counted as a person sees them (Swift Characters, \
        not UTF-8 bytes), an East Asian wide or full-width one (Han, Kana, Hangul, full-width forms) counting as \
        two; a null or absent message has none.
        """
    static let guideline = "Keep the message short enough to display on one or two lines"
    static let source = "ios7: Alert; current: Alerts (Alert Titles and Messages)"

    static func judge(_ call: RuleCall) {
        let limit = Int(call[Self.maxChars])
        let event = call.event
        let message = call.slice(event.message)
        guard message.hasGreaterDisplayLength(than: limit) else { return }
        let characters = message.displayLength
        var evidence = Evidence()
        evidence.add("characters", characters)
        evidence.add("max_chars", limit)
        call.report(
            subject: event.id,
            message:
                "The message of the alert \(label: event) has \(characters) characters\(message.hasWideCharacters ? ", a wide character counting as two" : ""); the limit is \(limit)",
            evidence: evidence,
            suggestion: "Shorten the message to \(limit) characters or fewer, one or two short sentences"
        )
    }

    private static let longMessage = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Upload Failed","message":"Photos could not be uploaded because the server took too long to respond. Check the network connection, then try again later.","buttons":[{"title":"OK"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Échec de l’envoi","message":"Les photos n’ont pas pu être envoyées, car le serveur a mis trop de temps à répondre. Vérifiez la connexion et réessayez.","buttons":[{"title":"OK"}]}
        """

    static let examples: [Example] = [
        Example("messages of 125 and 121 characters", expected: 2, in: [.ios7, .current], events: longMessage),
        Example(
            "messages of 125 and 121 characters (2009 sets no length)",
            expected: 0,
            in: .edition2009,
            events: longMessage
        ),
        Example(
            "a message of 120 characters in 128 bytes, and none",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Échec de l’envoi","message":"Les photos n’ont pas pu être envoyées car le serveur a mis trop de temps à répondre. Vérifiez la connexion et réessayez.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Upload Failed","message":null,"buttons":[{"title":"OK"}]}
                """
        ),
    ]
}
