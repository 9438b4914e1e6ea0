import Foundation

/// `e2e`: per stream, the daemon end to end with the ceiling's messages, and its ratio to the
/// ceiling (measured first when `ceiling` was not).
extension EndToEndBenchmark: Measurement {
    static let name = "e2e"

    static func measure(in run: BenchRun) throws {
        for profile in try run.options.profiles() {
            if run.ceilings[profile] == nil { try CeilingBenchmark.measure(profile, in: run) }
            try measure(profile, in: run)
        }
    }

    private static func measure(_ profile: StreamGenerator.Profile, in run: BenchRun) throws {
        let name = profile.rawValue
        let prefix = profile == .stress ? "" : name + "_"
        let input = try run.stream(profile)
        ModalwatchBench.say(
            "end to end (\(name)): modalwatchd, four modules, default config; first event sent → status counts every event"
        )
        for batched in [false, true] {
            let kind = batched ? "batch" : "single"
            let what = batched ? "\(run.options.batch)-event batches" : "single-event messages"
            let messages = input.messages(batch: batched ? run.options.batch : 1)
            run.attempt("e2e \(kind) \(name)") {
                let sample = try run.repeated("\(prefix)e2e \(kind)") { index in
                    var bench = EndToEndBenchmark(
                        executable: run.executable,
                        folder: run.folder,
                        registry: run.registry,
                        messages: messages
                    )
                    bench.profile = run.profile("\(prefix)e2e-\(kind)-\(index)")
                    return try bench.run()
                }
                let rate = sample.eventsPerSecond
                let ceilings = run.ceilings[profile]
                let ceiling = (batched ? ceilings?.batch : ceilings?.single)?.eventsPerSecond
                let key = "\(prefix)e2e_\(kind)_events_per_second"
                if let ceiling {
                    let ratio = rate / ceiling
                    run.table.add(
                        Figure(
                            key: key,
                            name: "\(name): end to end, \(what)",
                            value: rate,
                            unit: "events/s",
                            display: "\(Figure.rate(rate)) (\(Figure.format(ratio, 2)) of ceiling)",
                            target: "≥ 0.5 × ceiling = \(Figure.rate(ceiling / 2))",
                            met: ratio >= 0.5
                        )
                    )
                    run.table.add(
                        Figure(
                            key: "\(prefix)e2e_\(kind)_ratio",
                            name: "↳ ratio to the \(kind) ceiling",
                            value: ratio,
                            unit: "",
                            display: Figure.format(ratio, 3)
                        )
                    )
                    run.ratios.append((name, batched, ratio, rate, ceiling))
                } else {
                    run.table.add(
                        Figure(
                            key: key,
                            name: "\(name): end to end, \(what)",
                            value: rate,
                            unit: "events/s",
                            display: Figure.rate(rate),
                            target: "≥ 0.5 × ceiling (not measured)"
                        )
                    )
                    run.ratios.append((name, batched, nil, rate, nil))
                }
                addPublished(sample, key: "\(prefix)e2e_\(kind)", to: &run.table)
            }
        }
    }

    /// The informational lines: the same run, counted until every violation was stored and published;
    /// the daemon's CPU per event; the publishing thread's CPU per stored violation.
    private static func addPublished(_ sample: ThroughputSample, key: String, to table: inout ResultTable) {
        if let rate = sample.publishedEventsPerSecond {
            table.add(
                Figure(
                    key: key + "_published_events_per_second",
                    name: "↳ the same, until every violation stored and published",
                    value: rate,
                    unit: "events/s",
                    display: Figure.rate(rate)
                )
            )
        }
        if let cpu = sample.details.first(where: { $0.0 == "daemon_cpu_ns_per_event" })?.1,
            let others = sample.details.first(where: { $0.0 == "others_cpu_ms" })?.1
        {
            let busy = Double(others) / 1000 / max(sample.seconds, 1e-9)
            table.add(
                Figure(
                    key: key + "_daemon_cpu_ns_per_event",
                    name: "↳ daemon CPU per event (all threads)",
                    value: Double(cpu),
                    unit: "ns",
                    display: Figure.duration(nanoseconds: Double(cpu))
                        + " (others used \(Figure.format(busy, 2)) cores meanwhile)"
                )
            )
        }
        if let ingest = sample.details.first(where: { $0.0 == "ingest_thread_busy_permille" })?.1,
            let publishing = sample.details.first(where: { $0.0 == "publishing_thread_busy_permille" })?.1
        {
            table.add(
                Figure(
                    key: key + "_ingest_thread_busy",
                    name: "↳ ingest / publishing thread busy (share of one core)",
                    value: Double(ingest) / 1000,
                    unit: "cores",
                    display: Figure.format(Double(ingest) / 1000, 2) + " / "
                        + Figure.format(Double(publishing) / 1000, 2)
                )
            )
        }
        if let publishing = sample.details.first(where: { $0.0 == "publishing_thread_ns_per_stored_violation" })?.1,
            let stored = sample.details.first(where: { $0.0 == "violations_stored_in_run" })?.1
        {
            table.add(
                Figure(
                    key: key + "_publishing_ns_per_stored_violation",
                    name: "↳ publishing thread CPU per stored violation",
                    value: Double(publishing),
                    unit: "ns",
                    display: Figure.format(Double(publishing) / 1000, 2) + " µs (\(stored) stored, as fast as it can)"
                )
            )
        }
    }
}
