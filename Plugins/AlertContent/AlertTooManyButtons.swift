import RuleKit

/// `alert-too-many-buttons`: an alert that should be an action sheet.
enum AlertTooManyButtons: Rule {
    static let id = "alert-too-many-buttons"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let maxButtons = Parameter<Int64>.int(
        "max_buttons",
        default: 2,
        min: 1,
        max: 64,
        "buttons an alert may have"
    )
    static let parameters: [any ParameterDeclaration] = [maxButtons]
    static let summary =
        "An alert.presented has more than max_buttons buttons (cancel buttons count too); use an action sheet."
    static let guideline = "Avoid alerts with three or more buttons; offer more than two choices with an action sheet"
    static let source = "2009: Designing an Alert; ios7: Alert; current: Alerts (Alert Buttons)"

    static func judge(_ call: RuleCall) {
        let limit = call[Self.maxButtons]
        let event = call.event
        let buttons = event.buttons
        guard buttons.count > limit else { return }
        var evidence = Evidence()
        evidence.add("buttons", buttons.count)
        evidence.add("max_buttons", limit)
        evidence.add("titles", texts: buttons.count) { buttons[$0].title }
        call.report(
            subject: event.id,
            message: """
                The alert \(label: event) has \
                \(count: buttons.count, "button"); the limit is \(limit), so use an action sheet
                """,
            evidence: evidence,
            suggestion: "Offer these choices in an action sheet: \(quotedList: buttons.map { $0.title.string ?? "" })"
        )
    }

    static let examples: [Example] = [
        Example(
            "an alert with three buttons",
            expected: 1,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Save Changes?","message":null,"buttons":[{"title":"Save"},{"title":"Discard","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
        Example(
            "an alert with two buttons",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Save Changes?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Save"}]}
                """
        ),
    ]
}
