import ArgumentParser
import Foundation
import Glibc
import Histogram

/// `modalwatch-bench`: in one run on one machine, the raw libzmq ceiling and the real
/// daemon end to end with the same messages, latency at a fixed rate, memory per idle
/// session, and time to READY; one table, also written as JSON and Markdown.
@main
struct ModalwatchBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modalwatch-bench",
        abstract: "Measure modalwatchd against the raw ZeroMQ ceiling: throughput, latency, scaling, memory, start-up, restart.",
        discussion: """
            Build first: swift build -c release in the root package (the daemon and its four rule modules).
            Then: swift run -c release modalwatch-bench            (the full run, about 10 minutes)
                  swift run -c release modalwatch-bench --quick    (a minute or two)
            Measurements: ceiling, e2e (both on --streams stress,clean), latency, scaling, memory, ready, restart,
            cost (callgrind: needs valgrind), store, control (needs python3 with pyzmq); --only picks some.
            The last table lists every target (docs/PERFORMANCE.md) with its figure.
            """)

    @Option(help: "Events in the generated stream (default 1000000; --quick 200000).")
    var events: Int?

    @Option(help: "Concurrent sessions in the stream.")
    var sessions = 10_000

    @Option(help: "The generator's seed (the same stream as bench/generate_stream.py --seed).")
    var seed: UInt32 = 7

    @Option(help: "Events per message for the batch runs.")
    var batch = 50

    @Option(name: .customLong("repeat"), help: "Runs of each throughput measurement; the median is reported (default 3; --quick 1).")
    var repeatCount: Int?

    @Option(name: .customLong("latency-rate"), help: "Offered events per second for the latency run.")
    var latencyRate: Double = 100_000

    @Option(name: .customLong("latency-low-rate"), help: "Offered events per second for the second latency run (0: none).")
    var latencyLowRate: Double = 20_000

    @Option(name: .customLong("latency-seconds"), help: "Seconds of the latency run (default 10; --quick 3).")
    var latencySeconds: Double?

    @Option(name: .customLong("probe-every"), help: "One probe (an alert that fires at once) every N messages of the latency run.")
    var probeEvery = 50

    @Option(name: .customLong("memory-sessions"), help: "Idle-session counts for the memory runs, comma-separated (default 100000,1000000; --quick 100000).")
    var memorySessions: String?

    @Option(name: .customLong("memory-rate"), help: "Sessions started per second in the memory runs.")
    var memoryRate: Double = 200_000

    @Option(name: .customLong("ready-runs"), help: "Launches for the time to READY (default 5; --quick 3).")
    var readyRuns: Int?

    @Option(help: "Streams for the ceiling and end-to-end runs, comma-separated: stress, clean (default both).")
    var streams = "stress,clean"

    @Option(name: .customLong("scale-sessions"), help: "Live-session counts for the scaling runs, comma-separated (default 1000,10000,100000,1000000; --quick 1000,100000).")
    var scaleSessions: String?

    @Option(name: .customLong("scale-events"), help: "Events (single messages) timed at each scaling count, after the sessions' starts (default 300000; --quick 100000).")
    var scaleEvents: Int?

    @Option(name: .customLong("scale-latency-seconds"), help: "Seconds of each scaling latency run at --latency-rate (default 5; --quick 2).")
    var scaleLatencySeconds: Double?

    @Option(name: .customLong("restart-sessions"), help: "Live sessions for the restart run (default 1000000; --quick 100000).")
    var restartSessions: Int?

    @Option(name: .customLong("cost-events"), help: "Events in each stream of the callgrind run (default 100000; --quick 50000).")
    var costEvents: Int?

    @Option(name: .customLong("store-groups"), help: "Violations per commit for the store runs, comma-separated (default 10,100,1000).")
    var storeGroups = "10,100,1000"
    @Option(name: .customLong("store-query-rows"), help: "Violations in the history the store's queries are timed on (default 1000000).")
    var storeQueryRows = 1_000_000
    @Option(name: .customLong("store-violations"), help: "Write these violations (one JSON object a line, as `modalwatch check --format json` prints them) in the store run instead of the stream's.")
    var storeViolations: String?

    @Option(name: .customLong("control-live"), help: "Live sessions while the control requests run (default 100000; --quick 20000).")
    var controlLive: Int?

    @Option(name: .customLong("control-seconds"), help: "Seconds of control requests under a steady stream (default 10; --quick 4).")
    var controlSeconds: Double?

    @Option(help: "Measurements to run, comma-separated: ceiling, e2e, latency, scaling, memory, ready, restart, cost, store, control (default all).")
    var only: String?

    @Flag(help: "A short run: fewer events, one run each, shorter latency runs, 10^3 and 10^5 sessions for scaling, 10^5 for memory and restart.")
    var quick = false

    @Option(help: "Write the results to PATH.json and PATH.md.")
    var output = "bench-results"

    @Option(help: "The modalwatchd to run (default: next to this executable, or the root package's .build of the same configuration).")
    var daemon: String?

    @Option(help: "Record each end-to-end and latency run with `perf record` into this folder (perf must be installed).")
    var perf: String?

    @Option(name: .customLong("perf-args"), help: "perf record's arguments for --perf, space-separated.")
    var perfArgs = "-g -F 1999"

    @Option(name: .customLong("write-stream"), help: "Only write the generated stream to this NDJSON file, and exit.")
    var writeStream: String?

    static let measurements = ["ceiling", "e2e", "latency", "scaling", "memory", "ready", "restart", "cost", "store", "control"]

    func validate() throws {
        if let events, events < 1 { throw ValidationError("--events must be at least 1") }
        if sessions < 1 { throw ValidationError("--sessions must be at least 1") }
        if batch < 1 || batch > 1024 { throw ValidationError("--batch must be 1 to 1024") }
        if let repeatCount, repeatCount < 1 { throw ValidationError("--repeat must be at least 1") }
        if latencyLowRate < 0 { throw ValidationError("--latency-low-rate must be 0 or above") }
        if latencyRate <= 0 || (latencySeconds ?? 1) <= 0 { throw ValidationError("--latency-rate and --latency-seconds must be above 0") }
        if probeEvery < 2 { throw ValidationError("--probe-every must be at least 2") }
        if memoryRate <= 0 { throw ValidationError("--memory-rate must be above 0") }
        if (try? profiles()) == nil { throw ValidationError("--streams must name stress and/or clean, comma-separated") }
        if (try? scaleCounts()) == nil { throw ValidationError("--scale-sessions must be whole numbers of at least 1, comma-separated") }
        if let scaleEvents, scaleEvents < 1 { throw ValidationError("--scale-events must be at least 1") }
        if let scaleLatencySeconds, scaleLatencySeconds <= 0 { throw ValidationError("--scale-latency-seconds must be above 0") }
        if let restartSessions, restartSessions < 1 { throw ValidationError("--restart-sessions must be at least 1") }
        if let costEvents, costEvents <= 20_000 { throw ValidationError("--cost-events must be above 20000 (the first 20,000 are not counted)") }
        if (try? storeGroupSizes()) == nil { throw ValidationError("--store-groups must be whole numbers of at least 1, comma-separated") }
        if let controlLive, controlLive < 1 || controlLive > 999_000 { throw ValidationError("--control-live must be 1 to 999000 (the daemon keeps at most 1,000,000 sessions)") }
        if let controlSeconds, controlSeconds <= 0 { throw ValidationError("--control-seconds must be above 0") }
        if (try? memoryCounts()) == nil { throw ValidationError("--memory-sessions must be whole numbers of at least 2, comma-separated") }
        for name in selected where !Self.measurements.contains(name) {
            throw ValidationError("unknown measurement '\(name)'; choose from \(Self.measurements.joined(separator: ", "))")
        }
    }

    private var selected: [String] {
        only.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? Self.measurements
    }

    private func profiles() throws -> [StreamGenerator.Profile] {
        let names = streams.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let found = names.compactMap(StreamGenerator.Profile.init(rawValue:))
        guard !found.isEmpty, found.count == names.count else { throw ValidationError("bad --streams") }
        return found
    }

    private func scaleCounts() throws -> [Int] {
        let text = scaleSessions ?? (quick ? "1000,100000" : "1000,10000,100000,1000000")
        let counts = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 1 }) else { throw ValidationError("bad --scale-sessions") }
        return counts
    }

    private func storeGroupSizes() throws -> [Int] {
        let sizes = storeGroups.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty, sizes.allSatisfy({ $0 >= 1 }) else { throw ValidationError("bad --store-groups") }
        return sizes
    }

    private func memoryCounts() throws -> [Int] {
        let text = memorySessions ?? (quick ? "100000" : "100000,1000000")
        let counts = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 2 }) else { throw ValidationError("bad --memory-sessions") }
        return counts
    }

    func run() throws {
        let eventCount = events ?? (quick ? 200_000 : 1_000_000)
        let runs = repeatCount ?? (quick ? 1 : 3)
        let latencyDuration = latencySeconds ?? (quick ? 3 : 10)
        let latencyCount = Int(latencyRate * latencyDuration)
        let want = Set(selected)

        let generated = MonotonicClock.nanoseconds()
        let needed = writeStream != nil ? eventCount : max(eventCount, want.contains("latency") ? latencyCount : 0)
        let stream = StreamGenerator(events: needed, sessions: sessions, seed: seed).generate()
        if let writeStream {
            let data = Data(stream.ndjson())
            guard FileManager.default.createFile(atPath: writeStream, contents: data) else {
                throw BenchError("cannot write \(writeStream)")
            }
            Self.say("wrote \(stream.count) events (\(Figure.format(stream.averageEventBytes, 1)) bytes each on average) to \(writeStream)")
            return
        }
        let measured = EventStream(bytes: stream.bytes, offsets: Array(stream.offsets.prefix(eventCount + 1)), sessions: stream.sessions)
        let average = measured.averageEventBytes
        Self.say("stream: \(measured.count) events, \(sessions) concurrent sessions, \(Figure.format(average, 1)) bytes per event on average (generated in \(Figure.format(MonotonicClock.seconds(from: generated, to: MonotonicClock.nanoseconds()), 2)) s)")

        let registry = ChildRegistry()
        defer { registry.cleanUp() }
        let folder = try Self.makeTemporaryFolder()
        registry.add(folder: folder)
        let executable = try daemon ?? Self.daemonNextToMe()

        var table = ResultTable()
        table.context.append(("date", ISO8601DateFormatter().string(from: Date())))
        table.context.append(("command", CommandLine.arguments.map { URL(fileURLWithPath: $0).lastPathComponent == "modalwatch-bench" ? "modalwatch-bench" : $0 }.joined(separator: " ")))
        table.context += MachineInfo.describe()
        table.context.append(("load average at start", MachineInfo.loadAverage()))
        table.context.append(("daemon", executable))
        table.context.append(("stream", "\(measured.count) events, \(sessions) concurrent sessions, seed \(seed), \(Figure.format(average, 1)) bytes per event"))
        table.context.append(("runs per throughput figure", "\(runs) (median)"))
        table.add(Figure(key: "stream_average_event_bytes", name: "stream: bytes per event (average)", value: average, unit: "bytes",
                         display: Figure.format(average, 1), target: "~180"))
        var failures: [String] = []

        func attempt(_ what: String, _ body: () throws -> Void) {
            do { try body() } catch {
                failures.append("\(what): \(error)")
                Self.say("FAILED \(what): \(error)")
                table.add(Figure(key: what.replacingOccurrences(of: " ", with: "_") + "_failed", name: what, value: nil, unit: "",
                                 display: "failed (see below)", target: "", met: false))
            }
        }
        func profile(_ name: String) -> (arguments: [String], output: String)? {
            guard let perf else { return nil }
            try? FileManager.default.createDirectory(atPath: perf, withIntermediateDirectories: true)
            return (perfArgs.split(separator: " ").map(String.init), perf + "/" + name + ".data")
        }
        func repeated(_ what: String, _ body: (Int) throws -> ThroughputSample) throws -> ThroughputSample {
            var samples: [ThroughputSample] = []
            for i in 0..<runs {
                let sample = try body(i + 1)
                Self.say("  \(what) run \(i + 1)/\(runs): \(Figure.rate(sample.eventsPerSecond)) (\(Figure.format(sample.seconds, 3)) s)")
                samples.append(sample)
            }
            let median = ThroughputSample.median(samples)!
            var pairs: [(String, String)] = [
                ("events_per_second_median", Figure.format(median.eventsPerSecond, 0)),
                ("events_per_second_runs", samples.map { Figure.format($0.eventsPerSecond, 0) }.joined(separator: " ")),
                ("events", "\(median.events)"), ("messages", "\(median.messages)"), ("bytes", "\(median.bytes)"),
                ("seconds", Figure.format(median.seconds, 4)),
            ]
            pairs += median.details.map { ($0.0, "\($0.1)") }
            table.details.append((what, pairs))
            return median
        }

        let warmup = BenchEvents.warmupStart()
        // Per stream: the ceilings and the end-to-end rates, for the ratios and the targets.
        var ratios: [(stream: String, batched: Bool, ratio: Double?, rate: Double?, ceiling: Double?)] = []

        for streamProfile in try profiles() where want.contains("ceiling") || want.contains("e2e") {
            let name = streamProfile.rawValue
            // The stress stream keeps the keys of earlier results files; the others get a prefix.
            let prefix = streamProfile == .stress ? "" : name + "_"
            let input = streamProfile == .stress
                ? measured
                : StreamGenerator(events: eventCount, sessions: sessions, seed: seed, profile: streamProfile).generate()
            if streamProfile != .stress {
                Self.say("stream \(name): \(input.count) events, \(Figure.format(input.averageEventBytes, 1)) bytes per event on average")
                table.context.append(("stream \(name)", "\(input.count) events, \(sessions) concurrent sessions, seed \(seed), \(Figure.format(input.averageEventBytes, 1)) bytes per event"))
            }
            let singles = input.messages(batch: 1)
            let batches = input.messages(batch: batch)
            var ceilingSingle: ThroughputSample?
            var ceilingBatch: ThroughputSample?

            // The end-to-end ratios need the ceiling of the same run: `e2e` measures it too.
            if want.contains("ceiling") || want.contains("e2e") {
                Self.say("ceiling (\(name)): raw libzmq PUB→SUB over loopback TCP, the same messages, no processing")
                attempt("ceiling single \(name)") {
                    let sample = try repeated("\(prefix)ceiling single") { _ in try CeilingBenchmark(messages: singles, warmup: warmup).run() }
                    ceilingSingle = sample
                    table.add(Figure(key: "\(prefix)ceiling_single_events_per_second", name: "\(name): ceiling, single-event messages",
                                     value: sample.eventsPerSecond, unit: "events/s", display: Figure.rate(sample.eventsPerSecond)))
                }
                attempt("ceiling batch \(name)") {
                    let sample = try repeated("\(prefix)ceiling batch") { _ in try CeilingBenchmark(messages: batches, warmup: warmup).run() }
                    ceilingBatch = sample
                    table.add(Figure(key: "\(prefix)ceiling_batch_events_per_second", name: "\(name): ceiling, \(batch)-event batches",
                                     value: sample.eventsPerSecond, unit: "events/s", display: Figure.rate(sample.eventsPerSecond)))
                }
            }
            guard want.contains("e2e") else { continue }
            Self.say("end to end (\(name)): modalwatchd, four modules, default config; first event sent → status counts every event")
            for (batched, messages) in [(false, singles), (true, batches)] {
                let kind = batched ? "batch" : "single"
                let what = batched ? "\(batch)-event batches" : "single-event messages"
                attempt("e2e \(kind) \(name)") {
                    let sample = try repeated("\(prefix)e2e \(kind)") { run in
                        var bench = EndToEndBenchmark(executable: executable, folder: folder, registry: registry, messages: messages)
                        bench.profile = profile("\(prefix)e2e-\(kind)-\(run)")
                        return try bench.run()
                    }
                    let rate = sample.eventsPerSecond
                    let ceiling = (batched ? ceilingBatch : ceilingSingle)?.eventsPerSecond
                    let key = "\(prefix)e2e_\(kind)_events_per_second"
                    if let ceiling {
                        let ratio = rate / ceiling
                        table.add(Figure(key: key, name: "\(name): end to end, \(what)", value: rate, unit: "events/s",
                                         display: "\(Figure.rate(rate)) (\(Figure.format(ratio, 2)) of ceiling)",
                                         target: "≥ 0.5 × ceiling = \(Figure.rate(ceiling / 2))", met: ratio >= 0.5))
                        table.add(Figure(key: "\(prefix)e2e_\(kind)_ratio", name: "↳ ratio to the \(kind) ceiling", value: ratio, unit: "",
                                         display: Figure.format(ratio, 3)))
                        ratios.append((name, batched, ratio, rate, ceiling))
                    } else {
                        table.add(Figure(key: key, name: "\(name): end to end, \(what)", value: rate, unit: "events/s",
                                         display: Figure.rate(rate), target: "≥ 0.5 × ceiling (not measured)"))
                        ratios.append((name, batched, nil, rate, nil))
                    }
                    Self.addPublished(sample, what, key: "\(prefix)e2e_\(kind)", to: &table)
                }
            }
        }
        // The p99 and the publishing thread's CPU per stored violation of each latency run, by rate.
        var latencyRuns: [LatencyFigures] = []
        let latencyRates = [latencyRate] + (latencyLowRate > 0 && latencyLowRate != latencyRate ? [latencyLowRate] : [])
        for (runIndex, rate) in latencyRates.enumerated() where want.contains("latency") {
            // The first run keeps the keys of earlier results files; the others name their rate.
            let prefix = runIndex == 0 ? "latency" : "latency_\(Int(rate / 1000))k"
            Self.say("latency: \(Figure.rate(rate)) offered for \(Figure.format(latencyDuration, 1)) s, a probe every \(probeEvery) messages")
            attempt(prefix.replacingOccurrences(of: "_", with: " ")) {
                var bench = LatencyBenchmark(
                    executable: executable, folder: folder, registry: registry, stream: stream,
                    rate: rate, seconds: latencyDuration, probeEvery: probeEvery)
                bench.profile = profile(runIndex == 0 ? "latency" : prefix)
                let result = try bench.run()
                let h = result.latency
                let rateText = Figure.rate(rate)
                guard h.totalCount > 0 else { throw BenchError("no probe violation came back (\(result.probes) probes sent)") }
                latencyRuns.append(LatencyFigures(rate: rate, p99: Double(h.valueAtPercentile(99)),
                                                  publishingMicroseconds: result.publishingMicrosecondsPerViolation,
                                                  violationsStored: result.violationsStored))
                for (key, label, percentile) in [("p50", "p50", 50.0), ("p99", "p99", 99.0), ("p99_9", "p99.9", 99.9)] {
                    let ns = Double(h.valueAtPercentile(percentile))
                    let isTarget = key == "p99"
                    table.add(Figure(key: "\(prefix)_\(key)_ns", name: "latency sent → violation, \(label), at \(rateText)", value: ns, unit: "ns",
                                     display: Figure.duration(nanoseconds: ns), target: isTarget ? "< 1 ms" : "",
                                     met: isTarget ? ns < 1e6 : nil))
                }
                table.add(Figure(key: "\(prefix)_offered_events_per_second", name: "↳ latency run: rate offered; probes back", value: result.offeredRate,
                                 unit: "events/s", display: "\(Figure.rate(result.offeredRate)); \(result.received)/\(result.probes)"))
                if let publishing = result.publishingMicrosecondsPerViolation {
                    table.add(Figure(key: "\(prefix)_publishing_ns_per_stored_violation",
                                     name: "↳ publishing thread CPU per stored violation (\(result.violationsStored) stored)",
                                     value: publishing * 1000, unit: "ns", display: Figure.format(publishing, 2) + " µs",
                                     target: "≤ 2 µs", met: publishing <= 2))
                }
                let c = result.corrected
                table.details.append((prefix.replacingOccurrences(of: "_", with: " "), [
                    ("offered_events_per_second", Figure.format(result.offeredRate, 0)),
                    ("probes_sent", "\(result.probes)"), ("probes_received", "\(result.received)"),
                    ("p50_ns", "\(h.valueAtPercentile(50))"), ("p90_ns", "\(h.valueAtPercentile(90))"),
                    ("p99_ns", "\(h.valueAtPercentile(99))"), ("p99_9_ns", "\(h.valueAtPercentile(99.9))"),
                    ("max_ns", "\(h.max)"), ("mean_ns", Figure.format(h.mean, 0)),
                    ("corrected_p50_ns", "\(c.valueAtPercentile(50))"), ("corrected_p99_ns", "\(c.valueAtPercentile(99))"),
                    ("corrected_p99_9_ns", "\(c.valueAtPercentile(99.9))"), ("corrected_max_ns", "\(c.max)"),
                    ("max_sender_lag_ns", "\(result.maxSenderLag)"),
                ] + result.details.map { ($0.0, "\($0.1)") }))
                if result.received < result.probes {
                    Self.say("  latency: \(result.probes - result.received) of \(result.probes) probe violations did not come back")
                }
                Self.say("  latency at \(rateText): p50 \(Figure.duration(nanoseconds: Double(h.valueAtPercentile(50)))), p99 \(Figure.duration(nanoseconds: Double(h.valueAtPercentile(99)))), p99.9 \(Figure.duration(nanoseconds: Double(h.valueAtPercentile(99.9)))), max \(Figure.duration(nanoseconds: Double(h.max))); \(result.received)/\(result.probes) probes; offered \(Figure.rate(result.offeredRate)); publishing thread \(result.publishingMicrosecondsPerViolation.map { Figure.format($0, 2) + " µs" } ?? "?") per stored violation")
            }
        }
        if want.contains("scaling") {
            let counts = try scaleCounts()
            let measuredEvents = scaleEvents ?? (quick ? 100_000 : 300_000)
            let seconds = scaleLatencySeconds ?? (quick ? 2 : 5)
            Self.say("scaling: \(counts.map(Self.power).joined(separator: ", ")) live sessions; \(measuredEvents) events as single messages, then \(Figure.rate(latencyRate)) for \(Figure.format(seconds, 1)) s")
            for count in counts {
                let label = Self.power(count)
                // The stress stream over `count` sessions: its first `count` events start them
                // (sent in batches, not timed); the rest pick sessions among all of them.
                let scaled = StreamGenerator(events: count + max(measuredEvents, Int(latencyRate * seconds)), sessions: count, seed: seed).generate()
                let prefill = scaled.messages(first: count, batch: batch)
                let rest = scaled.dropping(first: count)
                var rate: Double?
                attempt("scaling \(label) throughput") {
                    var bench = EndToEndBenchmark(executable: executable, folder: folder, registry: registry,
                                                  messages: rest.messages(first: measuredEvents, batch: 1))
                    bench.prefill = prefill
                    let sample = try bench.run()
                    rate = sample.eventsPerSecond
                    table.details.append(("scaling \(label) throughput", [
                        ("sessions", "\(count)"), ("events", "\(sample.events)"), ("seconds", Figure.format(sample.seconds, 4)),
                        ("events_per_second", Figure.format(sample.eventsPerSecond, 0)),
                    ] + sample.details.map { ($0.0, "\($0.1)") }))
                }
                var p99: Double?
                attempt("scaling \(label) latency") {
                    var bench = LatencyBenchmark(executable: executable, folder: folder, registry: registry, stream: rest,
                                                 rate: latencyRate, seconds: seconds, probeEvery: probeEvery)
                    bench.prefill = prefill
                    let result = try bench.run()
                    guard result.latency.totalCount > 0 else { throw BenchError("no probe violation came back (\(result.probes) probes sent)") }
                    p99 = Double(result.latency.valueAtPercentile(99))
                    table.details.append(("scaling \(label) latency", [
                        ("sessions", "\(count)"), ("probes_sent", "\(result.probes)"), ("probes_received", "\(result.received)"),
                        ("p50_ns", "\(result.latency.valueAtPercentile(50))"), ("p99_ns", "\(result.latency.valueAtPercentile(99))"),
                        ("p99_9_ns", "\(result.latency.valueAtPercentile(99.9))"), ("max_ns", "\(result.latency.max)"),
                        ("offered_events_per_second", Figure.format(result.offeredRate, 0)),
                    ] + result.details.map { ($0.0, "\($0.1)") }))
                }
                let display = (rate.map { Figure.rate($0) } ?? "failed") + "; p99 " + (p99.map { Figure.duration(nanoseconds: $0) } ?? "failed")
                table.add(Figure(key: "scaling_\(count)_events_per_second", name: "scaling: \(label) live sessions, throughput; p99 at \(Figure.rate(latencyRate))",
                                 value: rate, unit: "events/s", display: display))
                if let p99 {
                    table.add(Figure(key: "scaling_\(count)_p99_ns", name: "↳ p99 at \(label) live sessions", value: p99, unit: "ns",
                                     display: Figure.duration(nanoseconds: p99)))
                }
                Self.say("  \(label) sessions: \(display)")
            }
        }
        if want.contains("memory") {
            for count in try memoryCounts() {
                Self.say("memory: \(count) idle sessions")
                attempt("memory \(count)") {
                    let result = try MemoryBenchmark(executable: executable, folder: folder, registry: registry,
                                                     sessions: count, rate: memoryRate, seed: seed &+ 1).run()
                    table.add(Figure(key: "rss_per_idle_session_\(count)", name: "RSS per idle session at \(Self.power(count)) sessions",
                                     value: result.perSession, unit: "bytes", display: Figure.format(result.perSession, 0) + " B",
                                     target: "≤ 1 KiB", met: result.perSession <= 1024))
                    table.details.append(("memory \(count)", [
                        ("rss_before_bytes", "\(result.before)"), ("rss_after_bytes", "\(result.after)"),
                        ("bytes_per_session", Figure.format(result.perSession, 1)),
                        ("seconds_to_live", Figure.format(result.seconds, 3)),
                    ] + result.details.map { ($0.0, "\($0.1)") }))
                    Self.say("  \(count) sessions: RSS \(result.before / 1024) KiB → \(result.after / 1024) KiB, \(Figure.format(result.perSession, 0)) B per session")
                }
            }
        }
        if want.contains("ready") {
            let launches = readyRuns ?? (quick ? 3 : 5)
            Self.say("start to READY: \(launches) launches")
            attempt("ready") {
                let times = try StartupBenchmark(executable: executable, folder: folder, registry: registry, runs: launches).run()
                let sorted = times.sorted()
                let median = sorted[(sorted.count - 1) / 2]
                table.add(Figure(key: "ready_ms_median", name: "start → READY (median of \(times.count); max)", value: median, unit: "ms",
                                 display: "\(Figure.format(median, 1)) ms; \(Figure.format(sorted.last!, 1)) ms", target: "< 200 ms", met: median < 200))
                table.details.append(("ready", [("ms", times.map { Figure.format($0, 1) }.joined(separator: " "))]))
            }
        }
        var restart: RestartBenchmark.Result?
        if want.contains("restart") {
            let count = restartSessions ?? (quick ? 100_000 : 1_000_000)
            Self.say("restart: \(count) live sessions, SIGTERM → exit, then a second daemon on the same state → READY")
            attempt("restart") {
                let result = try RestartBenchmark(executable: executable, folder: folder, registry: registry,
                                                  sessions: count, seed: seed &+ 2).run()
                restart = result
                let label = Self.power(result.requested)
                table.add(Figure(key: "restart_stop_seconds", name: "restart at \(label) sessions: SIGTERM → exit (snapshot written)",
                                 value: result.stopSeconds, unit: "s", display: Figure.format(result.stopSeconds, 2) + " s",
                                 target: "< 5 s", met: result.stopSeconds < 5))
                table.add(Figure(key: "restart_ready_seconds", name: "restart at \(label) sessions: start → READY (snapshot restored)",
                                 value: result.readySeconds, unit: "s", display: Figure.format(result.readySeconds, 2) + " s; \(result.restored) restored",
                                 target: "< 5 s, all restored", met: result.readySeconds < 5 && result.restored >= result.sessions))
                table.add(Figure(key: "restart_snapshot_bytes_per_session", name: "restart: snapshot bytes per session",
                                 value: result.bytesPerSession, unit: "bytes",
                                 display: Figure.format(result.bytesPerSession, 1) + " B (\(result.snapshotBytes) B)",
                                 target: "≤ 150 B", met: result.bytesPerSession <= 150))
                table.details.append(("restart", [
                    ("sessions", "\(result.sessions)"), ("fill_seconds", Figure.format(result.fillSeconds, 3)),
                    ("stop_seconds", Figure.format(result.stopSeconds, 3)), ("exit_status", "\(result.exitStatus)"),
                    ("snapshot_bytes", "\(result.snapshotBytes)"), ("ready_seconds", Figure.format(result.readySeconds, 3)),
                    ("restored", "\(result.restored)"),
                ]))
                Self.say("  stop \(Figure.format(result.stopSeconds, 2)) s, snapshot \(Figure.format(result.bytesPerSession, 1)) B/session, READY \(Figure.format(result.readySeconds, 2)) s, \(result.restored)/\(result.sessions) restored")
            }
        }
        var cost: EngineCostBenchmark.Result?
        if want.contains("cost") {
            let count = costEvents ?? (quick ? 50_000 : 100_000)
            Self.say("cost: callgrind on modalwatch check, clean and stress streams of \(count) events (bench/engine_cost.sh; a few minutes)")
            attempt("cost") {
                let binaries = URL(fileURLWithPath: executable).deletingLastPathComponent().path
                let result = try EngineCostBenchmark(root: try HelperCommand.repositoryRoot(daemon: executable), binaries: binaries,
                                                     folder: folder, events: count).run(registry: registry)
                cost = result
                table.details.append(("cost", [("events", "\(count)")]
                    + result.perCleanEvent.sorted { $0.key < $1.key }.map { ("per_clean_event_\($0.key)", Figure.format($0.value, 2)) }
                    + result.perStressEvent.sorted { $0.key < $1.key }.map { ("per_stress_event_\($0.key)", Figure.format($0.value, 2)) }
                    + result.perViolation.sorted { $0.key < $1.key }.map { ("per_violation_\($0.key)", Figure.format($0.value, 2)) }))
                Self.addCost(result, to: &table)
            }
        }
        var store: StoreBenchmark.Result?
        if want.contains("store") {
            let sizes = try storeGroupSizes()
            Self.say("store: the stress stream's violations into a fresh history, commits of \(sizes.map(String.init).joined(separator: ", "))")
            attempt("store") {
                let cli = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("modalwatch").path
                var benchmark = StoreBenchmark(cli: cli, stream: measured.ndjson(), folder: folder, groupSizes: sizes)
                benchmark.queryRows = storeQueryRows
                benchmark.violationsFile = storeViolations
                let result = try benchmark.run(registry: registry)
                store = result
                Self.addStore(result, to: &table)
            }
        }
        var control: ControlHoldBenchmark.Result?
        if want.contains("control") {
            let live = controlLive ?? (quick ? 20_000 : 100_000)
            let seconds = controlSeconds ?? (quick ? 4 : 10)
            Self.say("control: every request at its largest for \(Figure.format(seconds, 0)) s with \(live) live sessions and a steady stream (bench/control_hold.py)")
            attempt("control") {
                let result = try ControlHoldBenchmark(root: try HelperCommand.repositoryRoot(daemon: executable), executable: executable,
                                                      folder: folder, live: live, seconds: seconds).run(registry: registry)
                control = result
                Self.addControl(result, live: live, to: &table)
            }
        }
        table.targets = Self.targets(ratios: ratios, latency: latencyRuns, wantedLatencyRates: want.contains("latency") ? latencyRates : [latencyRate, latencyLowRate].filter { $0 > 0 }, restart: restart, cost: cost, store: store, control: control)
        table.context.append(("load average at end", MachineInfo.loadAverage()))

        let text = table.text()
        print("")
        print(text)
        for failure in failures { print("failed: \(failure)") }
        do {
            try table.json().write(toFile: output + ".json", atomically: true, encoding: .utf8)
            try table.markdown().write(toFile: output + ".md", atomically: true, encoding: .utf8)
            print("\nwritten: \(output).json, \(output).md")
        } catch {
            throw BenchError("cannot write \(output).json / .md: \(error.localizedDescription)")
        }
        if !failures.isEmpty { throw ExitCode(1) }
    }

    /// The informational line: the same run, counted until every violation was stored and published.
    private static func addPublished(_ sample: ThroughputSample, _ what: String, key: String, to table: inout ResultTable) {
        if let rate = sample.publishedEventsPerSecond {
            table.add(Figure(key: key + "_published_events_per_second", name: "↳ the same, until every violation stored and published",
                             value: rate, unit: "events/s", display: Figure.rate(rate)))
        }
        if let cpu = sample.details.first(where: { $0.0 == "daemon_cpu_ns_per_event" })?.1,
           let others = sample.details.first(where: { $0.0 == "others_cpu_ms" })?.1 {
            let busy = Double(others) / 1000 / max(sample.seconds, 1e-9)
            table.add(Figure(key: key + "_daemon_cpu_ns_per_event", name: "↳ daemon CPU per event (all threads)", value: Double(cpu), unit: "ns",
                             display: Figure.duration(nanoseconds: Double(cpu)) + " (others used \(Figure.format(busy, 2)) cores meanwhile)"))
        }
        if let publishing = sample.details.first(where: { $0.0 == "publishing_thread_ns_per_stored_violation" })?.1,
           let stored = sample.details.first(where: { $0.0 == "violations_stored_in_run" })?.1 {
            table.add(Figure(key: key + "_publishing_ns_per_stored_violation", name: "↳ publishing thread CPU per stored violation",
                             value: Double(publishing), unit: "ns",
                             display: Figure.format(Double(publishing) / 1000, 2) + " µs (\(stored) stored, as fast as it can)"))
        }
    }

    /// Every target in docs/PERFORMANCE.md, with this run's figure and whether it is met; targets this
    /// bench does not measure name the command that does.
    private static func targets(
        ratios: [(stream: String, batched: Bool, ratio: Double?, rate: Double?, ceiling: Double?)],
        latency: [LatencyFigures], wantedLatencyRates: [Double], restart: RestartBenchmark.Result?, cost: EngineCostBenchmark.Result?,
        store: StoreBenchmark.Result?, control: ControlHoldBenchmark.Result?
    ) -> [Figure] {
        var rows: [Figure] = []
        for stream in StreamGenerator.Profile.allCases.map(\.rawValue) {
            for batched in [false, true] {
                let kind = batched ? "batch" : "single"
                let found = ratios.first { $0.stream == stream && $0.batched == batched }
                let display: String
                if let found, let ratio = found.ratio, let rate = found.rate, let ceiling = found.ceiling {
                    display = "\(Figure.format(ratio, 2)) (\(Figure.rate(rate)) of \(Figure.rate(ceiling)))"
                } else {
                    display = "not measured"
                }
                rows.append(Figure(key: "target_\(stream)_\(kind)_ratio",
                                   name: "\(stream): end to end / ceiling, \(batched ? "batches" : "single events")",
                                   value: found?.ratio, unit: "", display: display, target: "≥ 0.5", met: found?.ratio.map { $0 >= 0.5 }))
            }
        }
        for (index, rate) in wantedLatencyRates.enumerated() {
            let found = latency.first { $0.rate == rate }
            let key = index == 0 ? "target_latency_p99_ns" : "target_latency_\(Int(rate / 1000))k_p99_ns"
            rows.append(Figure(key: key, name: "stress: p99 sent → violation at \(Figure.rate(rate)) (stored, then published)",
                               value: found?.p99, unit: "ns", display: found.map { Figure.duration(nanoseconds: $0.p99) } ?? "not measured",
                               target: "< 1 ms", met: found.map { $0.p99 < 1e6 }))
        }
        // The publishing thread at the steady rate of the first latency run: CPU per violation stored.
        let steady = wantedLatencyRates.first.flatMap { rate in latency.first { $0.rate == rate } }
        rows.append(Figure(key: "target_publishing_cpu_per_stored_violation",
                           name: "publishing thread: CPU per stored violation, steady \(wantedLatencyRates.first.map { Figure.rate($0) } ?? "rate") (latency run)",
                           value: steady?.publishingMicroseconds, unit: "µs",
                           display: steady?.publishingMicroseconds.map { Figure.format($0, 2) + " µs (\(steady?.violationsStored ?? 0) stored)" } ?? "not measured (--only latency)",
                           target: "≤ 2 µs", met: steady?.publishingMicroseconds.map { $0 <= 2 }))
        let label = restart.map { power($0.requested) } ?? "10^6"
        rows.append(Figure(key: "target_restart_stop_seconds", name: "restart at \(label) sessions: stop", value: restart?.stopSeconds,
                           unit: "s", display: restart.map { Figure.format($0.stopSeconds, 2) + " s" } ?? "not measured",
                           target: "< 5 s", met: restart.map { $0.stopSeconds < 5 }))
        rows.append(Figure(key: "target_restart_ready_seconds", name: "restart at \(label) sessions: READY after", value: restart?.readySeconds,
                           unit: "s", display: restart.map { Figure.format($0.readySeconds, 2) + " s" } ?? "not measured",
                           target: "< 5 s", met: restart.map { $0.readySeconds < 5 && $0.restored >= $0.sessions }))
        rows.append(Figure(key: "target_restart_snapshot_bytes_per_session", name: "restart: snapshot per session", value: restart?.bytesPerSession,
                           unit: "bytes", display: restart.map { Figure.format($0.bytesPerSession, 1) + " B" } ?? "not measured",
                           target: "≤ 150 B", met: restart.map { $0.bytesPerSession <= 150 }))
        rows += targetRows(cost: cost, store: store, control: control)
        return rows
    }

    /// 100000 → "10^5".
    private static func power(_ count: Int) -> String {
        var exponent = 0, rest = count
        while rest >= 10 && rest % 10 == 0 { rest /= 10; exponent += 1 }
        return rest == 1 ? "10^\(exponent)" : "\(count)"
    }

    private static func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    private static func makeTemporaryFolder() throws(BenchError) -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array((base + "/modalwatch-bench.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw .system("mkdtemp") }
        return String(cString: made)
    }

    /// `modalwatchd` next to this executable, or else in the root package's build folder of the same
    /// configuration (`Benchmarks/.build/.../release/modalwatch-bench` → `.build/release/modalwatchd`).
    private static func daemonNextToMe() throws(BenchError) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let folder = URL(fileURLWithPath: me).deletingLastPathComponent()
        var candidates = [folder.appendingPathComponent("modalwatchd").path]
        // The nested package's .build sits in Benchmarks/; the root package's beside Benchmarks/.
        var ancestor = folder
        while ancestor.path != "/" {
            if ancestor.lastPathComponent == ".build" {
                let root = ancestor.deletingLastPathComponent().deletingLastPathComponent()
                candidates.append(root.appendingPathComponent(".build/\(folder.lastPathComponent)/modalwatchd").path)
                break
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BenchError("no modalwatchd at \(candidates.joined(separator: " or ")); run `swift build -c release` in the root package first, or pass --daemon PATH")
        }
        return path
    }
}
