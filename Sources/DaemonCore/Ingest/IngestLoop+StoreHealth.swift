import ControlProtocol
import RuleHost
import Synchronization

/// The history store's health and module faults in `status` and in the metrics
/// (violations.md: "`status` says whether the store is healthy"; docs/RELIABILITY.md).
extension IngestLoop {
    /// The fault part of the `status` reply besides its plain counters (those are in `counters.plain`)
    /// and the checkpoint's age, which the control thread reads when it answers (`CounterSnapshot`).
    func faultStatus(_ counters: DaemonCounters) -> FaultStatus {
        var status = FaultStatus()
        status.controlHoldMaxMicros = Int(clamping: controlHolds.maxMicros)
        status.controlHoldMaxRequest = controlHolds.maxRequest
        status.controlHoldMaxByRequest = controlHolds.maxByRequest.mapValues { Int(clamping: $0) }
        status.controlHoldCPUMaxByRequest = controlHolds.maxCPUByRequest.mapValues { Int(clamping: $0) }
        status.historyState = counters.historyState.name
        status.historyHealthy = counters.historyState == .ok
        status.historyError = publishing.health.lastErrorText
        status.connectionsRefusedBySocket = counters.connectionsRefusedBySocket.mapValues { Int(clamping: $0) }
        status.rulesQuarantined = faultGuard.quarantined.values.sorted { $0.rule < $1.rule }.map {
            FaultStatus.Quarantined(rule: $0.rule, module: $0.module, fault: $0.fault, event: $0.event, since: $0.since)
        }
        return status
    }

    /// When the newest whole checkpoint's walk began (the daemon's clock, ms): this daemon's
    /// newest, else the one it restored; nil for none.
    func checkpointAtMs() -> Int64? {
        let written = checkpointer?.writer.statistics
        return written.flatMap({ $0.written > 0 ? $0.lastWrittenAtMs : nil }) ?? restoredCheckpointAtMs
    }

    /// Seconds since the newest whole checkpoint's walk began (`checkpointAtMs()`); nil for none.
    func checkpointAgeSeconds() -> Double? {
        checkpointAtMs().map { Double(max(0, clock.milliseconds() - $0)) / 1000 }
    }

    /// Why `rule` is in quarantine, or nil.
    func quarantineReason(of rule: String) -> String? {
        faultGuard.quarantined[rule].map { "\($0.fault) on \($0.event)" }
    }

    /// The store's gauges for Prometheus: healthy (1/0) and violations in the spool; and the
    /// module faults: rules quarantined, modules refused, loaded module files changed on disk.
    func recordStoreHealthGauges(_ exporter: MetricsExporter) {
        let health = publishing.health
        exporter.record(gauge: "modalwatch_history_healthy", health.state == .ok ? 1 : 0)
        exporter.record(gauge: "modalwatch_violations_spooled", Double(health.spooled.load(ordering: .relaxed)))
        exporter.record(gauge: "modalwatch_history_wal_bytes", Double(health.walBytes.load(ordering: .relaxed)))
        if let age = checkpointAgeSeconds() { exporter.record(gauge: "modalwatch_checkpoint_age_seconds", age) }
        if let written = checkpointer?.writer.statistics, written.written > 0 {
            exporter.record(gauge: "modalwatch_checkpoint_sessions", Double(written.lastSessions))
            exporter.record(gauge: "modalwatch_checkpoint_bytes", Double(written.lastBytes))
        }
        exporter.record(gauge: "modalwatch_rules_quarantined", Double(faultGuard.quarantined.count))
        exporter.record(gauge: "modalwatch_modules_refused", Double(catalog.failures.count))
        exporter.record(gauge: "modalwatch_module_files_changed", Double(moduleWatch.changed.count))
    }
}
