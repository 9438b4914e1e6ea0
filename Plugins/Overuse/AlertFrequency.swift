import RuleKit

/// `alert-frequency`: too many alerts within a trailing window of event time.
enum AlertFrequency: Rule {
    static let id = "alert-frequency"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerWindow
    static let languages = Languages.any
    static let limit = Parameter<Int64>.int(
        "limit",
        default: 3,
        min: 1,
        max: 10_000,
        "alerts allowed within the window"
    )
    static let window = Parameter<Int64>.duration(
        "window",
        defaultMs: 600_000,
        minMs: 1_000,
        "the trailing window, in event time"
    )
    static let parameters: [any ParameterDeclaration] = [limit, window]
    static let summary = """
        An alert.presented makes the session's alerts within the trailing window (entries at exactly \
        ts - window still count) exceed limit; the subject is that alert; then quiet for one window.
        """
    static let guideline = "Minimize alerts"
    static let source = "2009: Using Alerts; ios7: Alert; current: Alerts"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let counter = TrailingWindowCount(limit: call[Self.limit], window: call[Self.window])
        guard let count = counter.push(event, call) else { return }
        counter.report(
            event,
            call,
            message: "\(count: count, "alert") within \(duration: counter.window); the limit is \(counter.limit)",
            evidence: counter.evidence(count: count),
            suggestion: "Show fewer alerts: keep them for problems and decisions that need attention now"
        )
    }

    static let examples: [Example] = [
        Example(
            "four alerts within ten minutes",
            expected: 1,
            events: ExampleEvents.stream(
                ExampleEvents.alert(1, at: 10_000, shownMs: 3_000),
                ExampleEvents.alert(
                    2,
                    at: 70_000,
                    title: "Upload Failed",
                    message: "The photo is too large.",
                    shownMs: 3_000
                ),
                ExampleEvents.alert(
                    3,
                    at: 130_000,
                    title: "No Connection",
                    message: "Check the network settings.",
                    shownMs: 3_000
                ),
                ExampleEvents.alert(4, at: 190_000, shownMs: nil)
            )
        ),
        Example(
            "a fifth alert in the same window stays quiet",
            expected: 1,
            events: ExampleEvents.stream(
                ExampleEvents.alerts(at: [10_000, 20_000, 30_000, 40_000, 50_000], shownMs: 1_000)
            )
        ),
        Example(
            "fires again once a whole window has passed",
            expected: 2,
            events: ExampleEvents.stream(
                ExampleEvents.alerts(
                    at: [0, 60_000, 120_000, 180_000, 900_000, 960_000, 1_020_000, 1_080_000],
                    shownMs: 1_000
                )
            )
        ),
        Example(
            "three alerts within ten minutes",
            expected: 0,
            events: ExampleEvents.stream(
                ExampleEvents.alert(1, at: 10_000, shownMs: 3_000),
                ExampleEvents.alert(
                    2,
                    at: 70_000,
                    title: "Upload Failed",
                    message: "The photo is too large.",
                    shownMs: 3_000
                ),
                ExampleEvents.alert(
                    3,
                    at: 130_000,
                    title: "No Connection",
                    message: "Check the network settings.",
                    shownMs: nil
                )
            )
        ),
        Example(
            "four alerts spread over more than ten minutes",
            expected: 0,
            events: ExampleEvents.stream(
                ExampleEvents.alerts(at: [0, 250_000, 500_000, 750_000], shownMs: 2_000)
            )
        ),
    ]
}
