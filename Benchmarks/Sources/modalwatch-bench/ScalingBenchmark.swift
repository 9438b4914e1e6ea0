import Foundation
import Histogram

/// `scaling`: at each of `--scale-sessions` live sessions, the throughput of `--scale-events` single
/// events (as `e2e`) and, on a second daemon filled the same way, the p99 at `--latency-rate` (as
/// `latency`).
enum ScalingBenchmark: Measurement {
    static let name = "scaling"

    static func measure(in run: BenchRun) throws {
        let options = run.options
        let counts = try options.scaleCounts()
        let measuredEvents = options.scaleEvents ?? (options.quick ? 100_000 : 300_000)
        let seconds = options.scaleLatencySeconds ?? (options.quick ? 2 : 5)
        let rate = options.latencyRate
        ModalwatchBench.say(
            "scaling: \(counts.map(ModalwatchBench.power).joined(separator: ", ")) live sessions; \(measuredEvents) events as single messages, then \(Figure.rate(rate)) for \(Figure.format(seconds, 1)) s"
        )
        for count in counts {
            let label = ModalwatchBench.power(count)
            // The stress stream over `count` sessions: its first `count` events start them
            // (sent in batches, not timed); the rest pick sessions among all of them.
            let scaled = try run.generator(events: count + max(measuredEvents, Int(rate * seconds)), sessions: count)
                .generate()
            let prefill = scaled.messages(first: count, batch: options.batch)
            let rest = scaled.dropping(first: count)
            var throughput: Double?
            run.attempt("scaling \(label) throughput") {
                var bench = EndToEndBenchmark(
                    executable: run.executable,
                    folder: run.folder,
                    registry: run.registry,
                    messages: rest.messages(first: measuredEvents, batch: 1)
                )
                bench.prefill = prefill
                let sample = try bench.run()
                throughput = sample.eventsPerSecond
                run.table.details.append(
                    (
                        "scaling \(label) throughput",
                        [
                            ("sessions", "\(count)"), ("events", "\(sample.events)"),
                            ("seconds", Figure.format(sample.seconds, 4)),
                            ("events_per_second", Figure.format(sample.eventsPerSecond, 0)),
                        ] + sample.details.map { ($0.0, "\($0.1)") }
                    )
                )
            }
            var p99: Double?
            run.attempt("scaling \(label) latency") {
                var bench = LatencyBenchmark(
                    executable: run.executable,
                    folder: run.folder,
                    registry: run.registry,
                    stream: rest,
                    rate: rate,
                    seconds: seconds,
                    probeEvery: options.probeEvery
                )
                bench.prefill = prefill
                let result = try bench.run()
                guard result.latency.totalCount > 0 else {
                    throw BenchError("no probe violation came back (\(result.probes) probes sent)")
                }
                p99 = Double(result.latency.valueAtPercentile(99))
                run.table.details.append(
                    (
                        "scaling \(label) latency",
                        [
                            ("sessions", "\(count)"), ("probes_sent", "\(result.probes)"),
                            ("probes_received", "\(result.received)"),
                            ("p50_ns", "\(result.latency.valueAtPercentile(50))"),
                            ("p99_ns", "\(result.latency.valueAtPercentile(99))"),
                            ("p99_9_ns", "\(result.latency.valueAtPercentile(99.9))"),
                            ("max_ns", "\(result.latency.max)"),
                            ("offered_events_per_second", Figure.format(result.offeredRate, 0)),
                        ] + result.details.map { ($0.0, "\($0.1)") }
                    )
                )
            }
            let display =
                (throughput.map { Figure.rate($0) } ?? "failed") + "; p99 "
                + (p99.map { Figure.duration(nanoseconds: $0) } ?? "failed")
            run.table.add(
                Figure(
                    key: "scaling_\(count)_events_per_second",
                    name: "scaling: \(label) live sessions, throughput; p99 at \(Figure.rate(rate))",
                    value: throughput,
                    unit: "events/s",
                    display: display
                )
            )
            if let p99 {
                run.table.add(
                    Figure(
                        key: "scaling_\(count)_p99_ns",
                        name: "↳ p99 at \(label) live sessions",
                        value: p99,
                        unit: "ns",
                        display: Figure.duration(nanoseconds: p99)
                    )
                )
            }
            ModalwatchBench.say("  \(label) sessions: \(display)")
        }
    }
}
