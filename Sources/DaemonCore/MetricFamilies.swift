import ControlProtocol
import Prometheus

/// The help text of every `modalwatch_*` metric family the daemon exports, by name: each family's
/// `# HELP` line, the same for all its series. Those of the status counters are their
/// ``StatusCounter/metricHelp``; the others (labelled families, gauges) are spelled here.
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
    static let help: [String: String] = Dictionary(
        uniqueKeysWithValues: StatusCounter.allCases.compactMap { counter in
            counter.metricName.flatMap { name in counter.metricHelp.map { (name, $0) } }
        } + others.map { ($0.key, $0.value) }
    )

    /// The help text of the families that are not status counters, by family name.
    private static let others: [String: String] = [
        "modalwatch_language_skips_total":
            "Judgements a rule skipped because it does not judge the text's language, by rule and language.",
        "modalwatch_violations_total": "Violations found, by rule and severity.",
        "modalwatch_violations_rate_limited_total": "Violations the rate limit held back, by rule.",
        "modalwatch_events_rejected_total": "Events rejected before judging, by reason.",
        "modalwatch_sessions_live": "Sessions live now.",
        "modalwatch_ingest_loop_lag_seconds": "How late the ingest loop's last periodic tick ran, in seconds.",
        "modalwatch_apps_known": "Apps remembered now.",
        "modalwatch_ingest_connections": "Connections the ingest socket holds now on its TCP endpoints.",
        "modalwatch_history_healthy":
            "Whether the history takes writes: 1 if it does, 0 if it fails or no history is kept.",
        "modalwatch_violations_spooled": "Violations waiting in the spool for the history.",
        "modalwatch_history_wal_bytes": "The size of the history's WAL file in bytes, as last measured.",
        "modalwatch_connections_refused_total":
            "Connections the publish or control socket shut down past its limit, by socket.",
        "modalwatch_checkpoint_age_seconds": "Seconds since the newest whole session checkpoint's walk began.",
        "modalwatch_checkpoint_sessions": "Sessions in the newest session checkpoint this daemon wrote.",
        "modalwatch_checkpoint_bytes": "Bytes of the newest session checkpoint this daemon wrote.",
        "modalwatch_rules_quarantined": "Rules in quarantine after a crash or hang in them.",
        "modalwatch_modules_refused": "Rule modules that failed to load.",
        "modalwatch_module_files_changed": "Loaded module files changed on disk since they were loaded.",
    ]
}
