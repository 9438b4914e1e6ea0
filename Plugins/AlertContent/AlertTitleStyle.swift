import AlertText
import RuleKit

/// `alert-title-style`: an alert title's capitalization and ending punctuation.
enum AlertTitleStyle: Rule {
    static let id = "alert-title-style"
    static let rev: UInt32 = 3
    static let severity = Severity.info
    static let editions: Editions = [.ios7, .current]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.english
    static let summary = """
        ios7: a question (ends with ?) or a title of two or more sentences that is not sentence-style (each \
        sentence judged on its own), or a one-sentence non-question that ends with . or is not title-style. A \
        sentence ends at . ? ! or … (or ...) followed by whitespace, or at the end of the title. current: title-style \
        rather than sentence-style (3+ words, every non-minor word after the first capitalized, and not also \
        sentence-style), or a one-sentence non-question ending with . (an ellipsis ... is not a period). \
        Proper nouns by form pass (OK, iCloud, FaceTime), as do quoted names and a short list (Wi-Fi, Bluetooth, \
        weekdays); minor words may be capitalized in title-style; a title in capitals (DELETE ALL PHOTOS) is \
        neither style; a title without words is not judged.
        """
    static let guideline =
        "Capitalize and punctuate the title as the edition asks: sentence-style now, title-style for fragments in iOS 7"
    static let source =
        "ios7: Alert (Use capitalization and punctuation appropriately); current: Alerts (Alert Titles and Messages)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let title = call.slice(event.title)
        guard title.firstWord != nil else { return }
        let reason: String
        if call.edition == .ios7 {
            if title.isQuestion || title.sentenceCount >= 2 {
                guard !title.isSentenceStyle else { return }
                reason =
                    title.isQuestion
                    ? "is a question not in sentence-style capitalization"
                    : "has several sentences not in sentence-style capitalization"
            } else if title.endsWithPeriod {
                reason = "is not a question and ends with a period"
            } else if !title.isTitleStyle {
                reason = "is not a question and not in title-style capitalization"
            } else {
                return
            }
        } else {
            if title.isTitleStyleRatherThanSentenceStyle() {
                reason = "is in title-style capitalization rather than sentence-style"
            } else if title.sentenceCount == 1, !title.isQuestion, title.endsWithPeriod {
                reason = "is one sentence, not a question, and ends with a period"
            } else {
                return
            }
        }
        var evidence = Evidence()
        evidence.add("title", event.title)
        evidence.add("question", title.isQuestion)
        evidence.add("sentences", title.sentenceCount)
        evidence.add("title_style", title.isTitleStyle)
        evidence.add("sentence_style", title.isSentenceStyle)
        let corrected = Self.corrected(title, edition: call.edition)
        evidence.add("suggested_title", corrected)
        call.report(
            subject: event.id,
            message: "The alert title \(quoted: event.title) \(reason)",
            evidence: evidence,
            suggestion: "Write the title as \(quoted: corrected)"
        )
    }

    /// The title as the edition asks for it: `ios7` a question or several sentences in
    /// sentence-style, any other title in title-style; `current` sentence-style; a
    /// one-sentence title that is not a question without its ending period.
    static func corrected(_ title: TextSlice, edition: Editions) -> String {
        let several = title.isQuestion || title.sentenceCount >= 2
        let restyled: String
        if edition == .ios7 {
            restyled = several ? title.sentenceStyled : title.titleStyled
        } else {
            restyled = title.isTitleStyleRatherThanSentenceStyle() ? title.sentenceStyled : title.string
        }
        guard !several else { return restyled }
        return TextSlice.with(restyled) { $0.withoutEndingPeriod }
    }

    private static func stream(_ titles: [String]) -> String {
        var lines = [ExampleEvents.sessionStart]
        for (index, title) in titles.enumerated() {
            let id = "a\(index + 1)"
            lines.append(
                #"{"v":1,"type":"alert.presented","session":"S1","ts":\#(1_732_290_001_000 + index * 2000),"id":"\#(id)","title":"\#(title)","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"OK"}]}"#
            )
            lines.append(
                #"{"v":1,"type":"alert.dismissed","session":"S1","ts":\#(1_732_290_002_000 + index * 2000),"id":"\#(id)","button":0,"via":"button"}"#
            )
        }
        return lines.joined(separator: "\n")
    }

    private static let titleStyleFragment = stream(["Unable to Download Item"])
    private static let sentenceStyleFragment = stream(["Unable to download item"])
    private static let badInBoth = stream(["Delete All Photos?", "The photo was saved."])
    private static let twoSentences = stream(["Sync failed. Try again later."])
    private static let severalSentences = stream([
        "The app crashed. Would you like to send a report?", "Update installed. Restart now…", "Saved! Share it?",
    ])
    private static let severalSentencesInTitleStyle = stream(["Sync Failed. Try Again Later."])
    private static let goodInBoth = stream([
        "Delete this contact?", "Sign in to iCloud?", "Can’t Connect", "Allow “Maps” to use location?",
        "Turn on Wi-Fi?", "Connecting...", "🎉",
    ])

    static let examples: [Example] = [
        Example("a title-style fragment (right in ios7)", expected: 0, in: .ios7, events: titleStyleFragment),
        Example(
            "a title-style fragment (current asks for sentence-style)",
            expected: 1,
            in: .current,
            events: titleStyleFragment
        ),
        Example("a title-style fragment (2009 has no rule)", expected: 0, in: .edition2009, events: titleStyleFragment),
        Example(
            "a sentence-style fragment (ios7 asks for title-style)",
            expected: 1,
            in: .ios7,
            events: sentenceStyleFragment
        ),
        Example(
            "a sentence-style fragment (right in current)",
            expected: 0,
            in: [.current, .edition2009],
            events: sentenceStyleFragment
        ),
        Example(
            "a title-style question and a one-sentence title ending with a period",
            expected: 2,
            in: [.ios7, .current],
            events: badInBoth
        ),
        Example(
            "a title-style question and a one-sentence title ending with a period (2009)",
            expected: 0,
            in: .edition2009,
            events: badInBoth
        ),
        Example("v1.1: two sentences in sentence-style, ending with a period", expected: 0, events: twoSentences),
        Example("v1.1: each sentence of a title judged on its own", expected: 0, events: severalSentences),
        Example(
            "v1.1: two sentences in title-style (ios7 asks sentence-style)",
            expected: 1,
            in: .ios7,
            events: severalSentencesInTitleStyle
        ),
        Example(
            "v1.1: two sentences in title-style (current)",
            expected: 1,
            in: .current,
            events: severalSentencesInTitleStyle
        ),
        Example("questions, names, fragments and an emoji-only title", expected: 0, events: goodInBoth),
    ]
}
