public import RuleHost

/// What the engine needs from the configuration, already validated.
public struct EngineConfiguration: Sendable {
    /// A per-rule override: enable or disable, change severity, change parameters.
    public struct RuleOverride: Sendable, Equatable {
        /// nil keeps the rule as it is; false turns it off.
        public var enabled: Bool?
        /// nil keeps the rule's own.
        public var severity: Severity?
        /// Parameter values by name (durations in ms).
        public var parameters: [String: Int64]

        /// Creates an override.
        public init(enabled: Bool? = nil, severity: Severity? = nil, parameters: [String: Int64] = [:]) {
            self.enabled = enabled
            self.severity = severity
            self.parameters = parameters
        }

        /// `other` laid over `self`: what `other` sets wins.
        public func merged(with other: RuleOverride) -> RuleOverride {
            RuleOverride(
                enabled: other.enabled ?? enabled,
                severity: other.severity ?? severity,
                parameters: parameters.merging(other.parameters) { _, new in new }
            )
        }
    }

    /// A per-app override: its edition and its own rule overrides.
    public struct AppOverride: Sendable, Equatable {
        /// nil: the default edition.
        public var edition: Edition?
        /// Rule overrides for this app, laid over the global ones.
        public var rules: [String: RuleOverride]

        /// Creates an app override.
        public init(edition: Edition? = nil, rules: [String: RuleOverride] = [:]) {
            self.edition = edition
            self.rules = rules
        }
    }

    /// The edition for apps the config does not name.
    public var defaultEdition: Edition
    /// Global rule overrides, by rule id.
    public var rules: [String: RuleOverride]
    /// Per-app overrides, by bundle id.
    public var apps: [String: AppOverride]
    /// A session with no event for this long (event time) starts afresh, and is released.
    public var sessionIdleTimeoutMs: Int64
    /// Past this many live sessions the least recently active is released.
    public var maxSessions: Int
    /// Past this many apps, apps without a live session are forgotten, least recently seen first.
    public var maxApps: Int
    /// The most app-wide counters, and the most app-wide firings, one app keeps.
    public var maxAppValues: Int
    /// At most this many violations of one rule in one app per second of event time; the
    /// rest are counted, not published, so a rule that fires on every event of one app
    /// cannot flood anyone, nor hold back another app's violations.
    /// Event time, not wall clock: `check` holds back exactly what the daemon did.
    public var maxViolationsPerRulePerSecond: Int
    /// Rules taken out of service after a crash or a hang in them, by id, with the reason
    /// (the daemon's quarantine: docs/RELIABILITY.md); they run again after a reload.
    public var quarantined: [String: String] = [:]
    /// Whether an event of an unknown session that names no `app` starts the session under
    /// `-` with the defaults, rather than being refused as `unknown_session`. Only for rules'
    /// worked examples, which are fragments of a session; the daemon and `check` refuse them.
    public var startsSessionsWithoutApp = false

    /// The defaults of `interfaces.md`.
    public init(
        defaultEdition: Edition = .current,
        rules: [String: RuleOverride] = [:],
        apps: [String: AppOverride] = [:],
        sessionIdleTimeoutMs: Int64 = 30 * 60 * 1000,
        maxSessions: Int = 1_000_000,
        maxViolationsPerRulePerSecond: Int = 1000,
        maxApps: Int = 100_000,
        maxAppValues: Int = 256
    ) {
        self.maxApps = maxApps
        self.maxAppValues = maxAppValues
        self.maxViolationsPerRulePerSecond = maxViolationsPerRulePerSecond
        self.defaultEdition = defaultEdition
        self.rules = rules
        self.apps = apps
        self.sessionIdleTimeoutMs = sessionIdleTimeoutMs
        self.maxSessions = maxSessions
    }
}
