import AlertText
import RuleKit

extension Message.StringInterpolation {
    /// The alert as `AlertLabel.of(event)` names it: the title in quotes, else the
    /// message in quotes, else the alert's id in quotes.
    mutating func appendInterpolation(label event: Event) {
        if !event.title.isBlank {
            appendInterpolation(quoted: event.title)
        } else if !event.message.isBlank {
            appendInterpolation(quoted: event.message)
        } else {
            appendInterpolation(quoted: event.id)
        }
    }

    /// A word's text, as `Word.string` reads.
    mutating func appendInterpolation(word: Word) {
        appendInterpolation(Text(word.text.bytes))
    }
}
