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

    /// The titles of `event`'s buttons in their order, the button at `index` moved to `position`
    /// (0 the top, `Int.max` the bottom); with `appending`, that title added at the bottom.
    static func titles(
        _ event: Event,
        moving index: Int? = nil,
        to position: Int = 0,
        appending: String? = nil
    ) -> [String] {
        var titles = event.buttons.map { $0.title.string ?? "" }
        if let index {
            let moved = titles.remove(at: index)
            titles.insert(moved, at: min(position, titles.count))
        }
        if let appending { titles.append(appending) }
        return titles
    }
}
