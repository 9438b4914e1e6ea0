import Foundation

/// `ceiling`: per stream, the raw libzmq rate of the same messages, single events and batches.
extension CeilingBenchmark: Measurement {
    static let name = "ceiling"

    static func measure(in run: BenchRun) throws {
        for profile in try run.options.profiles() { try measure(profile, in: run) }
    }

    /// The ceilings of one stream, kept in the run for the end-to-end ratios.
    static func measure(_ profile: StreamGenerator.Profile, in run: BenchRun) throws {
        let name = profile.rawValue
        // The stress stream's keys have no prefix; the other streams' start with their name.
        let prefix = profile == .stress ? "" : name + "_"
        let input = try run.stream(profile)
        ModalwatchBench.say("ceiling (\(name)): raw libzmq PUB→SUB over loopback TCP, the same messages, no processing")
        var found: (single: ThroughputSample?, batch: ThroughputSample?) = (nil, nil)
        for batched in [false, true] {
            let kind = batched ? "batch" : "single"
            let messages = input.messages(batch: batched ? run.options.batch : 1)
            run.attempt("ceiling \(kind) \(name)") {
                let sample = try run.repeated("\(prefix)ceiling \(kind)") { _ in
                    try CeilingBenchmark(messages: messages, warmup: run.warmup).run()
                }
                if batched { found.batch = sample } else { found.single = sample }
                run.table.add(
                    Figure(
                        key: "\(prefix)ceiling_\(kind)_events_per_second",
                        name: "\(name): ceiling, "
                            + (batched ? "\(run.options.batch)-event batches" : "single-event messages"),
                        value: sample.eventsPerSecond,
                        unit: "events/s",
                        display: Figure.rate(sample.eventsPerSecond)
                    )
                )
            }
        }
        run.ceilings[profile] = found
    }
}
