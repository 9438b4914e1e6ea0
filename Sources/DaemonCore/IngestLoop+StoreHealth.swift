import Foundation

/// The history store's health in `status` and in the metrics (violations.md: "`status` says
/// whether the store is healthy").
extension IngestLoop {
    /// `history_state` (`ok`, `failing`, `none`), `history_healthy`, the spool and the losses.
    func storeHealthFields() -> [String: Any] {
        let health = publishing.health
        return [
            "history_state": health.state.name,
            "history_healthy": health.state == .ok,
            "history_error": health.lastErrorText ?? NSNull(),
            "history_outages": health.outages.load(ordering: .relaxed),
            "violations_spooled": health.spooled.load(ordering: .relaxed),
            "spool_memory_bytes": health.spoolMemoryBytes.load(ordering: .relaxed),
            "spool_file_bytes": health.spoolFileBytes.load(ordering: .relaxed),
            "violations_recovered": health.recovered.load(ordering: .relaxed),
            "violations_unstored": health.unstored.load(ordering: .relaxed),
        ]
    }

    /// The store's counters for Prometheus.
    func storeHealthTotals() -> [(name: String, dimensions: [(String, String)], value: UInt64)] {
        let health = publishing.health
        return [
            ("modalwatch_violations_unstored_total", [], health.unstored.load(ordering: .relaxed)),
            ("modalwatch_violations_recovered_total", [], health.recovered.load(ordering: .relaxed)),
            ("modalwatch_history_outages_total", [], health.outages.load(ordering: .relaxed)),
        ]
    }

    /// The store's gauges for Prometheus: healthy (1/0) and violations in the spool.
    func recordStoreHealthGauges(_ exporter: MetricsExporter) {
        let health = publishing.health
        exporter.record(gauge: "modalwatch_history_healthy", health.state == .ok ? 1 : 0)
        exporter.record(gauge: "modalwatch_violations_spooled", Double(health.spooled.load(ordering: .relaxed)))
    }
}
