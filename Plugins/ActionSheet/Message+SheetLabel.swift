import RuleKit

extension Message.StringInterpolation {
    /// The sheet as `SheetLayout.label(event)` names it: its title in quotes, else its id in quotes.
    mutating func appendInterpolation(label event: Event) {
        appendInterpolation(quoted: event.title.isBlank ? event.id : event.title)
    }
}
