import RuleKit

/// How a sheet is shown (rules.md, "Module `action-sheet`").
enum SheetLayout {
    /// Phone-style: the session's device is `phone`, or the sheet is not `in_popover`
    /// (absent counts as not in a popover).
    static func isPhoneStyle(_ call: RuleCall) -> Bool {
        call.session.device == .phone || call.event.inPopover != true
    }

    /// The sheet's name for messages: its title in quotes, else its id in quotes.
    static func label(_ event: Event) -> String {
        event.title.isBlank ? Phrase.quoted(event.id) : Phrase.quoted(event.title)
    }
}
