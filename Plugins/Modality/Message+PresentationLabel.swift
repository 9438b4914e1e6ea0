import RuleKit

extension Message.StringInterpolation {
    /// A presented view as messages name it (violations.md, "Messages are for designers"):
    /// its title in quotes, else its id in quotes.
    mutating func appendInterpolation(label event: Event) {
        appendInterpolation(quoted: event.title.isBlank ? event.id : event.title)
    }
}
