/// The settings a reload does not put in force: the daemon reads them at its start only
/// (endpoints, the state directory and history, module loading, timeouts, the log level);
/// a reload puts in force the rule settings (`engine`: editions, rules, apps, the session and
/// app bounds) and releases quarantined rules.
extension DaemonConfiguration {
    /// The configuration keys whose value differs in `fresh` and that take effect only after a
    /// restart, in the order the configuration reference lists them.
    public func restartOnlyChanges(to fresh: DaemonConfiguration) -> [String] {
        let settings: [(key: String, changed: Bool)] = [
            ("events", fresh.events != events),
            ("events_connect", fresh.eventsConnect != eventsConnect),
            ("subscribe", fresh.subscribe != subscribe),
            ("publish", fresh.publish != publish),
            ("control", fresh.control != control),
            ("metrics", fresh.metrics != metrics),
            ("metrics_allow_remote", fresh.metricsAllowRemote != metricsAllowRemote),
            ("rules_dirs", fresh.rulesDirs != rulesDirs),
            ("modules", !Self.sameModuleSettings(fresh.moduleSettings, moduleSettings)),
            ("rule_call_timeout", fresh.ruleCallTimeoutMs != ruleCallTimeoutMs),
            ("module_load_timeout", fresh.moduleLoadTimeoutMs != moduleLoadTimeoutMs),
            ("quarantine", fresh.quarantineEnabled != quarantineEnabled),
            ("stop_timeout", fresh.stopTimeoutMs != stopTimeoutMs),
            ("checkpoint_interval", fresh.checkpointIntervalMs != checkpointIntervalMs),
            ("state_dir", fresh.stateDirectory != stateDirectory),
            (
                "history",
                fresh.historyPostgreSQL != historyPostgreSQL || fresh.historyMaxAgeMs != historyMaxAgeMs
                    || fresh.historyMaxRows != historyMaxRows || fresh.spoolMemoryBytes != spoolMemoryBytes
                    || fresh.spoolFileBytes != spoolFileBytes || fresh.historyWALLimitBytes != historyWALLimitBytes
                    || fresh.stateGroup != stateGroup
            ),
            ("curve", fresh.curve != curve),
            ("control_allow_reload_over_tcp", fresh.controlAllowReloadOverTCP != controlAllowReloadOverTCP),
            ("log_level", fresh.logLevel != logLevel),
            ("max_ingest_connections", fresh.maxIngestConnections != maxIngestConnections),
        ]
        return settings.filter(\.changed).map(\.key)
    }

    private static func sameModuleSettings(
        _ a: [String: [(key: String, value: String)]],
        _ b: [String: [(key: String, value: String)]]
    ) -> Bool {
        a.count == b.count
            && a.allSatisfy { name, pairs in
                guard let other = b[name], other.count == pairs.count else { return false }
                return zip(pairs, other).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            }
    }
}
