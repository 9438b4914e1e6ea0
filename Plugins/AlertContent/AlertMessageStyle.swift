import AlertText
import RuleKit

/// `alert-message-style`: an alert message that is not a complete sentence.
enum AlertMessageStyle: Rule {
    static let id = "alert-message-style"
    static let rev: UInt32 = 2
    static let severity = Severity.info
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.localized
    static let summary = """
        A non-blank message whose first word is lowercase (opening quotes, brackets and emoji skipped; a digit, an \
        uncased script, a quoted name or iCloud-like word passes), or that does not end with . ! ? or … (also ...; \
        closing quotes are looked past, a trailing emoji is the end) or another script's ending mark (。！？ ؟ ۔ । ።, \
        the full-width forms); a null, absent or blank message does not fire. The suggested message ends with 。 when \
        it is mostly of a script written without spaces (Han, Kana, Thai, …), else with a period.
        """
    static let guideline =
        "Write the message in complete sentences, with sentence-style capitalization and ending punctuation"
    static let source = "ios7: Alert; current: Alerts (Alert Titles and Messages)"

    /// The message with a capital first letter and, when it has no ending mark, a period (`。` for
    /// a message mostly of a script written without spaces).
    static func corrected(_ message: TextSlice) -> String {
        let trimmed = message.trimmed
        var text = trimmed.startsWithCapital ? trimmed.string : Self.capitalizingFirstWord(trimmed)
        if !(trimmed.endingMark?.endsSentence ?? false) {
            // A colon, semicolon or comma at the end becomes the period.
            while let last = text.last, ":;, ：；，、،؛".contains(last) { text.removeLast() }
            text += trimmed.isMostlySpaceless ? "。" : "."
        }
        return text
    }

    /// The text with its first word's first letter in upper case.
    private static func capitalizingFirstWord(_ text: TextSlice) -> String {
        guard let first = text.firstWord else { return text.string }
        let word = first.string
        let before = String(decoding: UnsafeBufferPointer(rebasing: text.bytes[0..<first.offset]), as: UTF8.self)
        let after = String(
            decoding: UnsafeBufferPointer(rebasing: text.bytes[(first.offset + first.text.count)...]),
            as: UTF8.self
        )
        return before + (word.first.map { $0.uppercased() } ?? "") + word.dropFirst() + after
    }

    static func judge(_ call: RuleCall) {
        let event = call.event
        let message = call.slice(event.message)
        guard !message.isBlank else { return }
        let capital = message.startsWithCapital
        let mark = message.endingMark
        let ends = mark?.endsSentence ?? false
        guard !capital || !ends else { return }
        // Asked first, so the corrected message is made once, and only for a report the host takes.
        guard call.shouldReport(subject: event.id) else { return }
        let corrected = Self.corrected(message)
        var evidence = Evidence()
        evidence.add("starts_with_capital", capital)
        evidence.add("ending", mark?.symbol)
        evidence.add("suggested_message", corrected)
        let problem =
            switch (capital, ends) {
            case (false, false): "does not begin with a capital letter or end with . ! ? or …"
            case (false, true): "does not begin with a capital letter"
            default: "does not end with . ! ? or …"
            }
        call.report(
            subject: event.id,
            message: "The message of the alert \(label: event) \(problem)",
            evidence: evidence,
            suggestion: "Write the message as \(quoted: corrected)"
        )
    }

    private static let fragments = """
        \(ExampleEvents.sessionStart)
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Error","message":"Something went wrong","buttons":[{"title":"OK"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Unable to Sync","message":"the server is down.","buttons":[{"title":"OK"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Löschen fehlgeschlagen","message":"überprüfen Sie die Verbindung","buttons":[{"title":"OK"}]}
        """

    static let examples: [Example] = [
        Example(
            "v1.2: messages ending with ؟ and 。",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail","locale":"ar-SA"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"حذف الصورة","message":"هل تريد حذف هذه الصورة؟","buttons":[{"title":"إلغاء","style":"cancel"},{"title":"حذف","style":"destructive"}]}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290002000,"id":"a2","locale":"ja-JP","title":"接続できません","message":"申し訳ありません。","buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "no ending punctuation, a lowercase start, and both",
            expected: 3,
            in: [.ios7, .current],
            events: fragments
        ),
        Example(
            "no ending punctuation, a lowercase start, and both (2009 has no rule)",
            expected: 0,
            in: .edition2009,
            events: fragments
        ),
        Example(
            "complete sentences, names, an ellipsis, and no message",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Unable to Sync","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Storage Full","message":"iCloud storage is full!","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"Open Failed","message":"“notes.txt” could not be opened. Try again?","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290006000,"id":"a3","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290007000,"id":"a4","title":"Syncing","message":"Éléments en attente…","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290008000,"id":"a4","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290009000,"id":"a5","title":"Syncing Paused","message":null,"buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290010000,"id":"a5","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290011000,"id":"a6","title":"Syncing Paused","message":"  ","buttons":[{"title":"OK"}]}
                """
        ),
    ]
}
