import RuleKit

/// `modal-frequency`: too many alerts, action sheets and modal views within a trailing window.
enum ModalFrequency: Rule {
    static let id = "modal-frequency"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented, .sheetPresented, .modalPresented]
    static let fire = Fire.oncePerWindow
    static let languages = Languages.any
    static let limit = Parameter<Int64>.int(
        "limit",
        default: 10,
        min: 1,
        max: 10_000,
        "alerts, sheets and modal views allowed within the window"
    )
    static let window = Parameter<Int64>.duration(
        "window",
        defaultMs: 300_000,
        minMs: 1_000,
        "the trailing window, in event time"
    )
    static let parameters: [any ParameterDeclaration] = [limit, window]
    static let summary = """
        An alert, action sheet or modal view presentation makes the session's presentations within the \
        trailing window exceed limit (popovers do not count); the subject is that presentation; then quiet for one window.
        """
    static let guideline = "Avoid overusing alerts, action sheets and modal views"
    static let source = """
        2009: Alerts, Action Sheets, and Modal Views; ios7: Temporary Views; current: Modality
        """

    static func judge(_ call: RuleCall) {
        let event = call.event
        let counter = TrailingWindowCount(limit: call[Self.limit], window: call[Self.window])
        guard let count = counter.push(event, call) else { return }
        var evidence = counter.evidence(count: count)
        evidence.add("kind", (event.type.flatMap { PresentationKind(eventType: $0.rawValue) } ?? .modal).name)
        counter.report(
            event,
            call,
            message: """
                \(count: count, "alert, action sheet or modal view", plural: "alerts, action sheets and modal views") \
                within \(duration: counter.window); the limit is \(counter.limit)
                """,
            evidence: evidence,
            suggestion: "Interrupt less: show fewer alerts, action sheets and modal views"
        )
    }

    static let examples: [Example] = [
        Example(
            "eleven presentations within five minutes",
            expected: 1,
            events: ExampleEvents.stream(
                ExampleEvents.presentations(11, everyMs: 20_000)
            )
        ),
        Example(
            "ten presentations and three popovers within five minutes",
            expected: 0,
            events: ExampleEvents.stream(
                ExampleEvents.popover(1, at: 1_000),
                ExampleEvents.presentations(at: [3_000, 23_000, 43_000, 63_000]),
                ExampleEvents.popover(5, at: 83_000),
                ExampleEvents.presentations(at: [85_000, 105_000, 125_000, 145_000], from: 5),
                ExampleEvents.popover(9, at: 165_000),
                ExampleEvents.presentations(at: [167_000, 187_000], from: 9)
            )
        ),
        Example(
            "eleven presentations over seven minutes",
            expected: 0,
            events: ExampleEvents.stream(
                ExampleEvents.presentations(11, everyMs: 40_000)
            )
        ),
    ]
}
