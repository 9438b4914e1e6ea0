import RuleKit

/// How a violation's message names the alert it is about.
enum AlertLabel {
    /// The title in quotes, else the message in quotes, else the alert's id in quotes.
    static func of(_ event: Event) -> String {
        if !event.title.isBlank { return Phrase.quoted(event.title) }
        if !event.message.isBlank { return Phrase.quoted(event.message) }
        return Phrase.quoted(event.id)
    }
}
