import Foundation

/// What the measurements of one `modalwatch-bench` run share: the options, the generated stream,
/// the daemon, the temporary folder and the children to clean up, the result table, and the
/// figures the Targets table is made of.
final class BenchRun {
    /// The command line.
    let options: ModalwatchBench
    /// The stress stream as generated (as long as the longest use of it needs).
    let generated: EventStream
    /// Its first `eventCount` events: the stream the throughput runs send.
    let measured: EventStream
    /// The `modalwatchd` measured.
    let executable: String
    /// A temporary folder removed at the end.
    let folder: String
    /// The children and folders to clean up on every way out.
    let registry: ChildRegistry
    /// Events in the measured streams.
    let eventCount: Int
    /// Runs per throughput figure (the median is reported).
    let runs: Int
    /// Seconds of each latency run.
    let latencySeconds: Double
    /// The one-event messages the warm-up sends.
    let warmup = BenchEvents.warmupStart()

    /// The rows, context and details printed and written at the end.
    var table = ResultTable()
    /// The measurements that failed, one line each.
    var failures: [String] = []

    /// Per stream: the ceilings' samples, single events and batches.
    var ceilings: [StreamGenerator.Profile: (single: ThroughputSample?, batch: ThroughputSample?)] = [:]
    /// Per stream and message shape: the end-to-end rate, its ceiling and their ratio.
    var ratios: [(stream: String, batched: Bool, ratio: Double?, rate: Double?, ceiling: Double?)] = []
    /// The p99 and the publishing thread's CPU per stored violation of each latency run.
    var latencyRuns: [LatencyFigures] = []
    /// The other measurements' results, for the Targets table.
    var restart: RestartBenchmark.Result?
    var cost: EngineCostBenchmark.Result?
    var store: StoreBenchmark.Result?
    var control: ControlHoldBenchmark.Result?
    var micro: MicroBenchmarks.Result?
    /// The checkpoint runs, one a session count.
    var checkpoints: [CheckpointBenchmark.Result] = []

    private var streams: [StreamGenerator.Profile: EventStream] = [:]

    init(
        options: ModalwatchBench,
        generated: EventStream,
        measured: EventStream,
        executable: String,
        folder: String,
        registry: ChildRegistry,
        eventCount: Int,
        runs: Int,
        latencySeconds: Double
    ) {
        self.options = options
        self.generated = generated
        self.measured = measured
        self.executable = executable
        self.folder = folder
        self.registry = registry
        self.eventCount = eventCount
        self.runs = runs
        self.latencySeconds = latencySeconds
        streams[.stress] = measured
    }

    /// The rates of the latency runs: `--latency-rate`, then `--latency-low-rate` unless 0 or the same.
    var latencyRates: [Double] {
        let options = options
        return [options.latencyRate]
            + (options.latencyLowRate > 0 && options.latencyLowRate != options.latencyRate
                ? [options.latencyLowRate] : [])
    }

    /// The repository (for the helper scripts).
    func repositoryRoot() throws -> String { try HelperCommand.repositoryRoot(daemon: executable) }

    /// The folder of the daemon, its modules and the CLI.
    var binaries: String { URL(fileURLWithPath: executable).deletingLastPathComponent().path }

    /// The generator of `events` events over `sessions` sessions of `profile`, with `--seed`.
    func generator(events: Int, sessions: Int, profile: StreamGenerator.Profile = .stress) throws -> StreamGenerator {
        StreamGenerator(
            root: try repositoryRoot(),
            events: events,
            sessions: sessions,
            seed: options.seed,
            profile: profile
        )
    }

    /// The measured stream of `profile`, generated once.
    func stream(_ profile: StreamGenerator.Profile) throws -> EventStream {
        if let found = streams[profile] { return found }
        let made = try generator(events: eventCount, sessions: options.sessions, profile: profile).generate()
        ModalwatchBench.say(
            "stream \(profile.rawValue): \(made.count) events, \(Figure.format(made.averageEventBytes, 1)) bytes per event on average"
        )
        table.context.append(
            (
                "stream \(profile.rawValue)",
                "\(made.count) events, \(options.sessions) concurrent sessions, seed \(options.seed), \(Figure.format(made.averageEventBytes, 1)) bytes per event"
            )
        )
        streams[profile] = made
        return made
    }

    /// Runs `body`; a failure is noted, printed and shown as a failed row, and the run goes on.
    func attempt(_ what: String, _ body: () throws -> Void) {
        do { try body() } catch {
            failures.append("\(what): \(error)")
            ModalwatchBench.say("FAILED \(what): \(error)")
            table.add(
                Figure(
                    key: what.replacingOccurrences(of: " ", with: "_") + "_failed",
                    name: what,
                    value: nil,
                    unit: "",
                    display: "failed (see below)",
                    target: "",
                    met: false
                )
            )
        }
    }

    /// `perf record`'s arguments and output file for the run `name`, with `--perf`.
    func profile(_ name: String) -> (arguments: [String], output: String)? {
        guard let perf = options.perf else { return nil }
        try? FileManager.default.createDirectory(atPath: perf, withIntermediateDirectories: true)
        return (options.perfArgs.split(separator: " ").map(String.init), perf + "/" + name + ".data")
    }

    /// `body` run `runs` times; the median sample, with every run's rate in the details.
    func repeated(_ what: String, _ body: (Int) throws -> ThroughputSample) throws -> ThroughputSample {
        var samples: [ThroughputSample] = []
        for i in 0..<runs {
            let sample = try body(i + 1)
            ModalwatchBench.say(
                "  \(what) run \(i + 1)/\(runs): \(Figure.rate(sample.eventsPerSecond)) (\(Figure.format(sample.seconds, 3)) s)"
            )
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
}
