import ControlProtocol
import Prometheus

/// Mirrors the daemon's counters into the Prometheus registry on the loop's tick (never
/// per event), for the Prometheus endpoint. Counters move by the difference
/// since the last tick, so a scrape agrees with `status` once the loop has ticked.
/// Every family has its `# HELP` (``MetricFamilies``) and `# TYPE`; the labelled ones have a zero
/// series for each label value known at the start (``declare(rules:rejectionReasons:)``).
/// `modalwatch_build_info{version,swift} 1` names the build.
final class MetricsExporter {
    /// The registry the HTTP endpoint renders.
    let registry: PrometheusCollectorRegistry
    private var last: [String: UInt64] = [:]
    private var counters: [String: Counter] = [:]
    private var gauges: [String: Gauge] = [:]

    init() {
        registry = PrometheusCollectorRegistry()
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "modalwatch",
                metricName: "build",
                unitName: "info",
                helpText: "The version of modalwatch and of the Swift compiler that built it; always 1."
            ),
            labels: [("version", ModalwatchVersion.string), ("swift", ModalwatchVersion.swiftCompiler)]
        ).set(to: 1)
        for name in StatusCounter.allCases.compactMap(\.metricName) { _ = counter(name, []) }
    }

    /// Makes the zero series of the labelled families: `modalwatch_violations_total{rule,severity}`
    /// and `modalwatch_violations_rate_limited_total{rule}` for each rule (with the severity it has
    /// by default), `modalwatch_events_rejected_total{reason}` for each rejection reason.
    func declare(rules: [(rule: String, severity: String)], rejectionReasons: [String]) {
        for (rule, severity) in rules {
            _ = counter("modalwatch_violations_total", [("rule", rule), ("severity", severity)])
            _ = counter("modalwatch_violations_rate_limited_total", [("rule", rule)])
        }
        for reason in rejectionReasons { _ = counter("modalwatch_events_rejected_total", [("reason", reason)]) }
    }

    /// Brings every metric up to the given totals.
    func update(
        totals: [(name: String, dimensions: [(String, String)], value: UInt64)],
        sessionsLive live: Int,
        lagSeconds: Double
    ) {
        for total in totals {
            let key = Self.key(total.name, total.dimensions)
            let previous = last[key] ?? 0
            let series = counter(total.name, total.dimensions)
            if total.value > previous { series.increment(by: Int64(clamping: total.value - previous)) }
            last[key] = max(previous, total.value)
        }
        record(gauge: "modalwatch_sessions_live", Double(live))
        record(gauge: "modalwatch_ingest_loop_lag_seconds", lagSeconds)
    }

    /// Sets the gauge `name` (made on first use; its help text is in ``MetricFamilies``).
    func record(gauge name: String, _ value: Double) {
        let gauge = gauges[name] ?? registry.makeGauge(descriptor: MetricFamilies.descriptor(name))
        gauges[name] = gauge
        gauge.set(to: value)
    }

    /// The counter series of `name` with `labels`, made (at zero) on first use.
    private func counter(_ name: String, _ labels: [(String, String)]) -> Counter {
        let key = Self.key(name, labels)
        if let existing = counters[key] { return existing }
        let made = registry.makeCounter(descriptor: MetricFamilies.descriptor(name), labels: labels)
        counters[key] = made
        return made
    }

    /// One series' key: its name and labels.
    private static func key(_ name: String, _ labels: [(String, String)]) -> String {
        name + labels.map { "|\($0.0)=\($0.1)" }.joined()
    }
}
