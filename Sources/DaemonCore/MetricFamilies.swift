import Prometheus

/// The help text of every `modalwatch_*` metric family the daemon exports, by name: each family's
/// `# HELP` line, the same for all its series.
enum MetricFamilies {
    /// The registry's descriptor of the family `name`: the whole name, and its help text.
    static func descriptor(_ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help(name))
    }

    /// The sentence for `name`'s `# HELP` line.
    static func help(_ name: String) -> String {
        guard let text = help[name] else {
            assertionFailure("the metric \(name) has no help text in MetricFamilies")
            return "A modalwatch metric."
        }
        return text
    }

    /// Every family's help text, by family name.
    static let help: [String: String] = [
        "modalwatch_messages_received_total": "ZeroMQ messages received on the ingest socket.",
        "modalwatch_events_received_total": "Events received, accepted or rejected; an NDJSON batch counts each of its events.",
        "modalwatch_events_judged_total": "Events the rules judged.",
        "modalwatch_violations_published_total": "Violations published on the publish socket.",
        "modalwatch_violations_stored_total": "Violations written to the history.",
        "modalwatch_violations_already_stored_total": "Violations judged again after a restore that the history already held: not stored twice.",
        "modalwatch_diagnostics_published_total": "Diagnostics published on the publish socket.",
        "modalwatch_diagnostics_suppressed_total": "Diagnostics over the per-app limit, not published.",
        "modalwatch_messages_dropped_total": "Messages the publisher dropped.",
        "modalwatch_subscriber_overflows_total": "Times a subscriber's queue overflowed.",
        "modalwatch_subscriptions_refused_total": "Subscriptions the publish socket refused past a bound; the subscriber's connection was shut down.",
        "modalwatch_language_skips_total": "Judgements a rule skipped because it does not judge the text's language, by rule and language.",
        "modalwatch_sessions_evicted_total": "Sessions evicted to stay within max_sessions.",
        "modalwatch_apps_evicted_total": "Apps without a live session forgotten to stay within max_apps.",
        "modalwatch_events_lost_total": "Events missing by the gaps in their sessions' seq.",
        "modalwatch_events_missing_before_first_total": "Events before the first one seen of a session that began without its session.start.",
        "modalwatch_app_values_refused_total": "Times an app-wide counter or firing for a new value was not kept (max_app_values).",
        "modalwatch_ingest_connections_refused_total": "Ingest connections shut down because the ingest socket held its maximum.",
        "modalwatch_ingest_accept_failures_total": "Ingest connections that could not be accepted, e.g. for want of a descriptor.",
        "modalwatch_violations_unstored_total": "Violations lost because the history could not store them and the spool was full.",
        "modalwatch_violations_recovered_total": "Violations written from the spool once the history took writes again.",
        "modalwatch_history_outages_total": "Times the history went from taking writes to failing.",
        "modalwatch_spool_records_damaged_total": "Damaged records of the spool's spill file, skipped.",
        "modalwatch_handover_dropped_total": "Violations and diagnostics the ingest thread could not hand over to the publishing thread.",
        "modalwatch_topics_too_large_total": "Messages refused because their topic frame was over its limit.",
        "modalwatch_violations_total": "Violations found, by rule and severity.",
        "modalwatch_violations_rate_limited_total": "Violations the rate limit held back, by rule.",
        "modalwatch_events_rejected_total": "Events rejected before judging, by reason.",
        "modalwatch_sessions_live": "Sessions live now.",
        "modalwatch_ingest_loop_lag_seconds": "How late the ingest loop's last periodic tick ran, in seconds.",
        "modalwatch_apps_known": "Apps remembered now.",
        "modalwatch_ingest_connections": "Connections the ingest socket holds now on its TCP endpoints.",
        "modalwatch_history_healthy": "Whether the history takes writes: 1 if it does, 0 if it fails or no history is kept.",
        "modalwatch_violations_spooled": "Violations waiting in the spool for the history.",
        "modalwatch_history_wal_bytes": "The size of the history's WAL file in bytes, as last measured.",
        "modalwatch_checkpoints_written_total": "Session checkpoints written whole.",
        "modalwatch_connections_refused_total": "Connections the publish or control socket shut down past its limit, by socket.",
        "modalwatch_checkpoint_failures_total": "Session checkpoints that could not be written (the previous one stays in force).",
        "modalwatch_checkpoint_age_seconds": "Seconds since the newest whole session checkpoint's walk began.",
        "modalwatch_checkpoint_sessions": "Sessions in the newest session checkpoint this daemon wrote.",
        "modalwatch_checkpoint_bytes": "Bytes of the newest session checkpoint this daemon wrote.",
        "modalwatch_rules_quarantined": "Rules in quarantine after a crash or hang in them.",
        "modalwatch_modules_refused": "Rule modules that failed to load.",
        "modalwatch_module_files_changed": "Loaded module files changed on disk since they were loaded.",
    ]
}
