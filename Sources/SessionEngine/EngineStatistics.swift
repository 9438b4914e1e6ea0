/// The engine's counters, read by `status`.
public struct EngineStatistics: Sendable, Equatable {
    /// Events handed to the engine (decoded and valid).
    public var eventsAccepted: UInt64 = 0
    /// Events applied to a session and judged by the rules.
    public var eventsJudged: UInt64 = 0
    /// Events with a `type` this version does not know: counted and ignored.
    public var eventsUnknownType: UInt64 = 0
    /// Events rejected by the engine (e.g. `app` not matching the session's).
    public var eventsRejected: UInt64 = 0
    /// Events of a session the engine does not know that name no `app`: refused, never judged
    /// under an app they did not name (`unknown_session`).
    public var eventsOfUnknownSessions: UInt64 = 0
    /// Events dropped as duplicates (`seq` not above the last).
    public var duplicates: UInt64 = 0
    /// Events lost, by `seq` gaps.
    public var eventsLost: UInt64 = 0
    /// Events before the first one seen of a session that began here without its
    /// `session.start` (its `seq` − 1): lost in transport, or received before the
    /// session was released or evicted.
    public var eventsMissingBeforeFirst: UInt64 = 0
    /// Events earlier than their session's latest `ts`.
    public var outOfOrder: UInt64 = 0
    /// Dismissals of ids not on the stack.
    public var unknownDismissals: UInt64 = 0
    /// Sessions started (including implicit starts under an event's `app`, and restarts).
    public var sessionsStarted: UInt64 = 0
    /// Sessions ended by `session.end`.
    public var sessionsEnded: UInt64 = 0
    /// Sessions released after the idle timeout.
    public var sessionsExpired: UInt64 = 0
    /// Sessions released to stay within `max_sessions`.
    public var sessionsEvicted: UInt64 = 0
    /// Violations that passed the firing discipline.
    public var violations: UInt64 = 0
    /// Reports a rule made that its firing discipline held back.
    public var reportsSuppressed: UInt64 = 0
    /// Violations held back by the rate limit (per app and rule), whether the rule reported
    /// them or asked first (`should_report`) and so never did.
    public var violationsRateLimited: UInt64 = 0
    /// Apps without a live session forgotten to stay within `max_apps`.
    public var appsEvicted: UInt64 = 0
    /// Times an app-wide counter or firing for a new value was not kept because the app
    /// held `max_app_values` already.
    public var appValuesRefused: UInt64 = 0
    /// Reports whose evidence was not a JSON object (replaced by {}).
    public var badEvidence: UInt64 = 0

    /// All zero.
    public init() {}
    /// Non-fatal errors rule modules reported during calls (`mw_host.module_error`).
    public var moduleErrors: UInt64 = 0
}
