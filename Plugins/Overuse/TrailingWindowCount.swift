import RuleKit

/// What `alert-frequency` and `modal-frequency` share: the session's presentation times in a
/// trailing window of event time, the count held against a limit, the quiet window after
/// firing respected, and the evidence and quiet time of the report.
struct TrailingWindowCount {
    /// The per-session window of presentation times (each rule's only window).
    private static let windowKey: UInt64 = 1
    /// Counts above this (or limit + 1) are capped in the evidence.
    private static let minimumKeep: Int64 = 32

    /// Presentations allowed within the window.
    let limit: Int64
    /// The trailing window, in milliseconds of event time.
    let window: Int64

    /// Records `event`'s time in the session's window; returns the count within the window
    /// when it exceeds `limit` and the host would report about `event` now, nil otherwise.
    func push(_ event: Event, _ call: RuleCall) -> Int64? {
        let keep = UInt32(clamping: max(limit + 1, Self.minimumKeep))
        let count = Int64(call.windowPush(Self.windowKey, ts: event.ts, windowMs: window, keep: keep))
        guard count > limit else { return nil }
        // Within the quiet window after firing, the host would hold the report back: skip it.
        guard call.shouldReport(subject: event.id) else { return nil }
        return count
    }

    /// The evidence both rules give, in this order: `count`, `limit`, `window_ms`.
    func evidence(count: Int64) -> Evidence {
        var evidence = Evidence()
        evidence.add("count", count)
        evidence.add("limit", limit)
        evidence.add("window_ms", window)
        return evidence
    }

    /// Reports about `event`; the rule then stays quiet for one window.
    func report(
        _ event: Event,
        _ call: RuleCall,
        message: @autoclosure () -> Message,
        evidence: @autoclosure () -> Evidence,
        suggestion: @autoclosure () -> Message?
    ) {
        call.report(
            subject: event.id,
            message: message(),
            evidence: evidence(),
            quietMs: window,
            suggestion: suggestion()
        )
    }
}
