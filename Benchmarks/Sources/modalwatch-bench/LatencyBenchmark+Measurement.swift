import Foundation
import Histogram

/// `latency`: p50/p99/p99.9 sent → violation received at `--latency-rate` and `--latency-low-rate`,
/// and the publishing thread's CPU per violation stored meanwhile.
extension LatencyBenchmark: Measurement {
    static let name = "latency"

    static func measure(in run: BenchRun) throws {
        let options = run.options
        for (runIndex, rate) in run.latencyRates.enumerated() {
            // The first run's keys start with `latency_`; the others' name their rate.
            let prefix = runIndex == 0 ? "latency" : "latency_\(Int(rate / 1000))k"
            ModalwatchBench.say(
                "latency: \(Figure.rate(rate)) offered for \(Figure.format(run.latencySeconds, 1)) s, a probe every \(options.probeEvery) messages"
            )
            run.attempt(prefix.replacingOccurrences(of: "_", with: " ")) {
                var bench = LatencyBenchmark(
                    executable: run.executable,
                    folder: run.folder,
                    registry: run.registry,
                    stream: run.generated,
                    rate: rate,
                    seconds: run.latencySeconds,
                    probeEvery: options.probeEvery
                )
                bench.profile = run.profile(runIndex == 0 ? "latency" : prefix)
                bench.tracePath = options.latencyTrace.map { "\($0)-\(Int(rate)).tsv" }
                let result = try bench.run()
                guard result.latency.totalCount > 0 else {
                    throw BenchError("no probe violation came back (\(result.probes) probes sent)")
                }
                add(result, rate: rate, prefix: prefix, to: run)
            }
        }
    }

    private static func add(_ result: Result, rate: Double, prefix: String, to run: BenchRun) {
        let h = result.latency
        let rateText = Figure.rate(rate)
        run.latencyRuns.append(
            LatencyFigures(
                rate: rate,
                p99: Double(h.valueAtPercentile(99)),
                publishingMicroseconds: result.publishingMicrosecondsPerViolation,
                violationsStored: result.violationsStored
            )
        )
        for (key, label, percentile) in [("p50", "p50", 50.0), ("p99", "p99", 99.0), ("p99_9", "p99.9", 99.9)] {
            let ns = Double(h.valueAtPercentile(percentile))
            let isTarget = key == "p99"
            run.table.add(
                Figure(
                    key: "\(prefix)_\(key)_ns",
                    name: "latency sent → violation, \(label), at \(rateText)",
                    value: ns,
                    unit: "ns",
                    display: Figure.duration(nanoseconds: ns),
                    target: isTarget ? "< 1 ms" : "",
                    met: isTarget ? ns < 1e6 : nil
                )
            )
        }
        run.table.add(
            Figure(
                key: "\(prefix)_offered_events_per_second",
                name: "↳ latency run: rate offered; probes back",
                value: result.offeredRate,
                unit: "events/s",
                display: "\(Figure.rate(result.offeredRate)); \(result.received)/\(result.probes)"
            )
        )
        if let publishing = result.publishingMicrosecondsPerViolation {
            run.table.add(
                Figure(
                    key: "\(prefix)_publishing_ns_per_stored_violation",
                    name: "↳ publishing thread CPU per stored violation (\(result.violationsStored) stored)",
                    value: publishing * 1000,
                    unit: "ns",
                    display: Figure.format(publishing, 2) + " µs",
                    target: "≤ 2 µs",
                    met: publishing <= 2
                )
            )
        }
        let c = result.corrected
        run.table.details.append(
            (
                prefix.replacingOccurrences(of: "_", with: " "),
                [
                    ("offered_events_per_second", Figure.format(result.offeredRate, 0)),
                    ("probes_sent", "\(result.probes)"), ("probes_received", "\(result.received)"),
                    ("p50_ns", "\(h.valueAtPercentile(50))"), ("p90_ns", "\(h.valueAtPercentile(90))"),
                    ("p99_ns", "\(h.valueAtPercentile(99))"), ("p99_9_ns", "\(h.valueAtPercentile(99.9))"),
                    ("max_ns", "\(h.max)"), ("mean_ns", Figure.format(h.mean, 0)),
                    ("corrected_p50_ns", "\(c.valueAtPercentile(50))"),
                    ("corrected_p99_ns", "\(c.valueAtPercentile(99))"),
                    ("corrected_p99_9_ns", "\(c.valueAtPercentile(99.9))"), ("corrected_max_ns", "\(c.max)"),
                    ("max_sender_lag_ns", "\(result.maxSenderLag)"),
                ] + result.details.map { ($0.0, "\($0.1)") }
            )
        )
        if result.received < result.probes {
            ModalwatchBench.say(
                "  latency: \(result.probes - result.received) of \(result.probes) probe violations did not come back"
            )
        }
        ModalwatchBench.say(
            "  latency at \(rateText): p50 \(Figure.duration(nanoseconds: Double(h.valueAtPercentile(50)))), p99 \(Figure.duration(nanoseconds: Double(h.valueAtPercentile(99)))), p99.9 \(Figure.duration(nanoseconds: Double(h.valueAtPercentile(99.9)))), max \(Figure.duration(nanoseconds: Double(h.max))); \(result.received)/\(result.probes) probes; offered \(Figure.rate(result.offeredRate)); publishing thread \(result.publishingMicrosecondsPerViolation.map { Figure.format($0, 2) + " µs" } ?? "?") per stored violation"
        )
    }
}
