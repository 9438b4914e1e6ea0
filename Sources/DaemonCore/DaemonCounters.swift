import ControlProtocol

/// The daemon's counters as `status` and the Prometheus metrics both report them, read once from
/// their owners (the pipeline, the engine, the publishing thread, the transport, the ingest
/// connections, the store's health) on the ingest thread. `prometheus` names each counter in the
/// metrics; `status` fills its reply from the same fields, so the two agree once the loop has ticked.
struct DaemonCounters: Sendable {
    var messagesReceived: UInt64 = 0
    var eventsReceived: UInt64 = 0
    var eventsJudged: UInt64 = 0
    var violationsPublished: UInt64 = 0
    var violationsStored: UInt64 = 0
    var violationsAlreadyStored: UInt64 = 0
    var diagnosticsPublished: UInt64 = 0
    var diagnosticsSuppressed: UInt64 = 0
    var messagesDropped: UInt64 = 0
    var subscriberOverflows: UInt64 = 0
    var subscriptionsRefused: UInt64 = 0
    var sessionsEvicted: UInt64 = 0
    var appsEvicted: UInt64 = 0
    var eventsLost: UInt64 = 0
    var eventsMissingBeforeFirst: UInt64 = 0
    var appValuesRefused: UInt64 = 0
    var ingestConnectionsRefused: UInt64 = 0
    var ingestAcceptFailures: UInt64 = 0
    var violationsUnstored: UInt64 = 0
    var violationsRecovered: UInt64 = 0
    var historyOutages: UInt64 = 0
    var checkpointsWritten: UInt64 = 0
    var checkpointFailures: UInt64 = 0
    /// The store's state and the violations waiting in the spool, read before every count the
    /// publishing thread moves (`IngestLoop.counters()`): a reply that says ok with nothing
    /// spooled then has every stored violation in `violationsStored`. Not counters: a state and
    /// a gauge, so not in `prometheus`.
    var historyState = StoreHealth.State.none
    var violationsSpooled = 0
    var spoolRecordsDamaged: UInt64 = 0
    var handoverDropped: UInt64 = 0
    var topicsTooLarge: UInt64 = 0
    /// Connections the publish and control sockets shut down past their limits, by socket.
    var connectionsRefusedBySocket: [String: UInt64] = [:]
    /// Events rejected, by `DiagnosticReason` name.
    var rejectedByReason: [String: UInt64] = [:]
    /// Violations the rate limit held back, by rule.
    var violationsRateLimitedByRule: [String: UInt64] = [:]
    /// Judgements skipped for their language, by rule, then language (rules.md, "Languages").
    var languagesSkipped: [String: [String: UInt64]] = [:]

    /// Each plain counter's Prometheus name.
    static let prometheus: [(name: String, value: any KeyPath<DaemonCounters, UInt64> & Sendable)] = [
        ("modalwatch_messages_received_total", \.messagesReceived),
        ("modalwatch_events_received_total", \.eventsReceived),
        ("modalwatch_events_judged_total", \.eventsJudged),
        ("modalwatch_violations_published_total", \.violationsPublished),
        ("modalwatch_violations_stored_total", \.violationsStored),
        ("modalwatch_violations_already_stored_total", \.violationsAlreadyStored),
        ("modalwatch_diagnostics_published_total", \.diagnosticsPublished),
        ("modalwatch_diagnostics_suppressed_total", \.diagnosticsSuppressed),
        ("modalwatch_messages_dropped_total", \.messagesDropped),
        ("modalwatch_subscriber_overflows_total", \.subscriberOverflows),
        ("modalwatch_subscriptions_refused_total", \.subscriptionsRefused),
        ("modalwatch_sessions_evicted_total", \.sessionsEvicted),
        ("modalwatch_apps_evicted_total", \.appsEvicted),
        ("modalwatch_events_lost_total", \.eventsLost),
        ("modalwatch_events_missing_before_first_total", \.eventsMissingBeforeFirst),
        ("modalwatch_app_values_refused_total", \.appValuesRefused),
        ("modalwatch_ingest_connections_refused_total", \.ingestConnectionsRefused),
        ("modalwatch_ingest_accept_failures_total", \.ingestAcceptFailures),
        ("modalwatch_violations_unstored_total", \.violationsUnstored),
        ("modalwatch_violations_recovered_total", \.violationsRecovered),
        ("modalwatch_history_outages_total", \.historyOutages),
        ("modalwatch_checkpoints_written_total", \.checkpointsWritten),
        ("modalwatch_checkpoint_failures_total", \.checkpointFailures),
        ("modalwatch_spool_records_damaged_total", \.spoolRecordsDamaged),
        ("modalwatch_handover_dropped_total", \.handoverDropped),
        ("modalwatch_topics_too_large_total", \.topicsTooLarge),
    ]

    /// The metrics' totals: every plain counter, then those by rule and by reason.
    var prometheusTotals: [(name: String, dimensions: [(String, String)], value: UInt64)] {
        var totals = Self.prometheus.map { (name: $0.name, dimensions: [(String, String)](), value: self[keyPath: $0.value]) }
        for (rule, count) in violationsRateLimitedByRule {
            totals.append(("modalwatch_violations_rate_limited_total", [("rule", rule)], count))
        }
        for (reason, count) in rejectedByReason { totals.append(("modalwatch_events_rejected_total", [("reason", reason)], count)) }
        for (socket, count) in connectionsRefusedBySocket {
            totals.append(("modalwatch_connections_refused_total", [("socket", socket)], count))
        }
        for (rule, languages) in languagesSkipped {
            for (language, count) in languages {
                totals.append(("modalwatch_language_skips_total", [("rule", rule), ("language", language)], count))
            }
        }
        return totals
    }
}
