import ControlProtocol
import Metrics
import Prometheus

/// Mirrors the daemon's counters into swift-metrics on the loop's tick (never
/// per event), for the Prometheus endpoint. Counters move by the difference
/// since the last tick, so a scrape agrees with `status` once the loop has ticked.
/// `modalwatch_build_info{version,swift} 1` names the build.
final class MetricsExporter {
    /// The registry the HTTP endpoint renders.
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private var last: [String: UInt64] = [:]
    private var counters: [String: Metrics.Counter] = [:]
    private let sessionsLive: Metrics.Gauge
    private let ingestLag: Metrics.Gauge
    private var gauges: [String: Metrics.Gauge] = [:]

    init() {
        registry = PrometheusCollectorRegistry()
        factory = PrometheusMetricsFactory(registry: registry)
        sessionsLive = Metrics.Gauge(label: "modalwatch_sessions_live", factory: factory)
        ingestLag = Metrics.Gauge(label: "modalwatch_ingest_loop_lag_seconds", factory: factory)
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "modalwatch", metricName: "build", unitName: "info",
                helpText: "The version of modalwatch and of the Swift compiler that built it; always 1."),
            labels: [("version", ModalwatchVersion.string), ("swift", ModalwatchVersion.swiftCompiler)]
        ).set(to: 1)
    }

    /// Brings every metric up to the given totals.
    func update(totals: [(name: String, dimensions: [(String, String)], value: UInt64)], sessionsLive live: Int, lagSeconds: Double) {
        for total in totals {
            let key = total.name + total.dimensions.map { "|\($0.0)=\($0.1)" }.joined()
            let previous = last[key] ?? 0
            if total.value > previous {
                let counter = counters[key] ?? Metrics.Counter(label: total.name, dimensions: total.dimensions, factory: factory)
                counters[key] = counter
                counter.increment(by: Int64(total.value - previous))
            } else if counters[key] == nil {
                counters[key] = Metrics.Counter(label: total.name, dimensions: total.dimensions, factory: factory)
            }
            last[key] = max(previous, total.value)
        }
        sessionsLive.record(live)
        ingestLag.record(lagSeconds)
    }

    /// Sets the gauge `name` (made on first use).
    func record(gauge name: String, _ value: Double) {
        let gauge = gauges[name] ?? Metrics.Gauge(label: name, factory: factory)
        gauges[name] = gauge
        gauge.record(value)
    }
}
