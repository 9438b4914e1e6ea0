import ArgumentParser
import Foundation
import Glibc
import Histogram

/// `modalwatch-bench`: every measurement of modalwatch, one type each (`measurements`), picked with
/// `--only`: in one run on one machine, the raw libzmq ceiling and the real daemon end to end with
/// the same messages, latency at a fixed rate, scaling, memory per idle session, start-up, restart,
/// the engine's exact cost, the store alone, the control socket's hold, the cost of `status`, the
/// micro-benchmarks' thresholds; on request the soak, the PostgreSQL store and the session
/// checkpoints' cost. One table, also written as JSON and Markdown.
@main
struct ModalwatchBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modalwatch-bench",
        abstract:
            "Every measurement of modalwatchd, one a type: throughput against the raw ZeroMQ ceiling, latency, scaling, memory, start-up, restart, cost, store, control, status, micro-benchmarks, soak, PostgreSQL, checkpoints.",
        discussion: """
            Build first: swift build -c release in the root package (the daemon and its four rule modules).
            Then: swift run -c release modalwatch-bench            (the full run, about 10 minutes)
                  swift run -c release modalwatch-bench --quick    (a minute or two)
            Measurements: ceiling, e2e (both on --streams stress,clean), latency, scaling, memory, ready, restart,
            cost (callgrind: needs valgrind), store, control and status (need python3 with pyzmq), micro (the
            package-benchmark thresholds); only with --only: soak, postgres (needs PostgreSQL's server binaries),
            checkpoint (what session checkpoints cost at 10^5 and 10^6 live sessions).
            The last table lists every target (docs/PERFORMANCE.md) with its figure; a run without --only also
            writes it, with the toolchain and the machine, to bench/results/targets.md (--targets).
            """
    )

    @Option(help: "Events in the generated stream (default 1000000; --quick 200000).")
    var events: Int?

    @Option(help: "Concurrent sessions in the stream.")
    var sessions = 10_000

    @Option(help: "The generator's seed (bench/generate_stream.py --seed, which the bench runs for its streams).")
    var seed: UInt32 = 7

    @Option(help: "Events per message for the batch runs.")
    var batch = 50

    @Option(
        name: .customLong("repeat"),
        help: "Runs of each throughput measurement; the median is reported (default 3; --quick 1)."
    )
    var repeatCount: Int?

    @Option(name: .customLong("latency-rate"), help: "Offered events per second for the latency run.")
    var latencyRate: Double = 100_000

    @Option(
        name: .customLong("latency-low-rate"),
        help: "Offered events per second for the second latency run (0: none)."
    )
    var latencyLowRate: Double = 20_000

    @Option(name: .customLong("latency-seconds"), help: "Seconds of the latency run (default 10; --quick 3).")
    var latencySeconds: Double?

    @Option(
        name: .customLong("probe-every"),
        help: "One probe (an alert that fires at once) every N messages of the latency run."
    )
    var probeEvery = 50

    @Option(
        name: .customLong("memory-sessions"),
        help: "Idle-session counts for the memory runs, comma-separated (default 100000,1000000; --quick 100000)."
    )
    var memorySessions: String?

    @Option(name: .customLong("memory-rate"), help: "Sessions started per second in the memory runs.")
    var memoryRate: Double = 200_000

    @Option(name: .customLong("ready-runs"), help: "Launches for the time to READY (default 5; --quick 3).")
    var readyRuns: Int?

    @Option(help: "Streams for the ceiling and end-to-end runs, comma-separated: stress, clean (default both).")
    var streams = "stress,clean"

    @Option(
        name: .customLong("scale-sessions"),
        help:
            "Live-session counts for the scaling runs, comma-separated (default 1000,10000,100000,1000000; --quick 1000,100000)."
    )
    var scaleSessions: String?

    @Option(
        name: .customLong("scale-events"),
        help:
            "Events (single messages) timed at each scaling count, after the sessions' starts (default 300000; --quick 100000)."
    )
    var scaleEvents: Int?

    @Option(
        name: .customLong("scale-latency-seconds"),
        help: "Seconds of each scaling latency run at --latency-rate (default 5; --quick 2)."
    )
    var scaleLatencySeconds: Double?

    @Option(
        name: .customLong("restart-sessions"),
        help: "Live sessions for the restart run (default 1000000; --quick 100000)."
    )
    var restartSessions: Int?

    @Option(
        name: .customLong("cost-events"),
        help: "Events in each stream of the callgrind run (default 100000; --quick 50000)."
    )
    var costEvents: Int?

    @Option(
        name: .customLong("store-groups"),
        help: "Violations per commit for the store runs, comma-separated (default 10,100,1000)."
    )
    var storeGroups = "10,100,1000"
    @Option(
        name: .customLong("store-query-rows"),
        help: "Violations in the history the store's queries are timed on (default 1000000)."
    )
    var storeQueryRows = 1_000_000
    @Option(
        name: .customLong("store-violations"),
        help:
            "Write these violations (one JSON object a line, as `modalwatch check --format json` prints them) in the store run instead of the stream's."
    )
    var storeViolations: String?

    @Option(
        name: .customLong("control-live"),
        help: "Live sessions while the control requests run (default 100000; --quick 20000)."
    )
    var controlLive: Int?

    @Option(
        name: .customLong("control-seconds"),
        help: "Seconds of control requests under a steady stream (default 10; --quick 4)."
    )
    var controlSeconds: Double?

    @Option(name: .customLong("soak-seconds"), help: "Seconds of the soak (default 180; --quick 60).")
    var soakSeconds: Double?

    @Option(
        name: .customLong("postgres-events"),
        help: "Events of the PostgreSQL capacity runs (default 200000; --quick 50000)."
    )
    var postgresEvents: Int?

    @Option(
        name: .customLong("checkpoint-sessions"),
        help:
            "Live idle-session counts for the checkpoint runs, comma-separated (default 100000,1000000; --quick 100000)."
    )
    var checkpointSessions: String?

    @Option(
        name: .customLong("checkpoint-seconds"),
        help: "The least seconds of each idle CPU window of the checkpoint runs (default 10; --quick 4)."
    )
    var checkpointSeconds: Double?

    @Option(
        help: """
            Measurements to run, comma-separated: ceiling, e2e, latency, scaling, memory, ready, restart, cost, store, control, status, \
            micro (the default: all these), soak, postgres, checkpoint.
            """
    )
    var only: String?

    @Flag(
        help:
            "A short run: fewer events, one run each, shorter latency runs, 10^3 and 10^5 sessions for scaling, 10^5 for memory and restart."
    )
    var quick = false

    @Option(help: "Write the results to PATH.json and PATH.md.")
    var output = "bench-results"

    @Option(
        help:
            "Write the Targets table, with the toolchain and the machine, to this file (default: the repository's bench/results/targets.md for a run without --only; empty: none)."
    )
    var targets: String?

    @Option(
        help:
            "The modalwatchd to run (default: next to this executable, or the root package's .build of the same configuration)."
    )
    var daemon: String?

    @Option(
        help: "Record each end-to-end and latency run with `perf record` into this folder (perf must be installed)."
    )
    var perf: String?

    @Option(name: .customLong("perf-args"), help: "perf record's arguments for --perf, space-separated.")
    var perfArgs = "-g -F 1999"

    @Option(
        name: .customLong("latency-trace"),
        help: """
            Write each latency run's probes to PREFIX-<rate>.tsv: ms since the first send, the sender's lag \
            behind its schedule, and the latency (ns), one probe a line.
            """
    )
    var latencyTrace: String?

    func validate() throws {
        if let events, events < 1 { throw ValidationError("--events must be at least 1") }
        if sessions < 1 { throw ValidationError("--sessions must be at least 1") }
        if batch < 1 || batch > 1024 { throw ValidationError("--batch must be 1 to 1024") }
        if let repeatCount, repeatCount < 1 { throw ValidationError("--repeat must be at least 1") }
        if latencyLowRate < 0 { throw ValidationError("--latency-low-rate must be 0 or above") }
        if latencyRate <= 0 || (latencySeconds ?? 1) <= 0 {
            throw ValidationError("--latency-rate and --latency-seconds must be above 0")
        }
        if probeEvery < 2 { throw ValidationError("--probe-every must be at least 2") }
        if memoryRate <= 0 { throw ValidationError("--memory-rate must be above 0") }
        if (try? profiles()) == nil {
            throw ValidationError("--streams must name stress and/or clean, comma-separated")
        }
        if (try? scaleCounts()) == nil {
            throw ValidationError("--scale-sessions must be whole numbers of at least 1, comma-separated")
        }
        if let scaleEvents, scaleEvents < 1 { throw ValidationError("--scale-events must be at least 1") }
        if let scaleLatencySeconds, scaleLatencySeconds <= 0 {
            throw ValidationError("--scale-latency-seconds must be above 0")
        }
        if let restartSessions, restartSessions < 1 { throw ValidationError("--restart-sessions must be at least 1") }
        if let costEvents, costEvents <= 20_000 {
            throw ValidationError("--cost-events must be above 20000 (the first 20,000 are not counted)")
        }
        if (try? storeGroupSizes()) == nil {
            throw ValidationError("--store-groups must be whole numbers of at least 1, comma-separated")
        }
        if let controlLive, controlLive < 1 || controlLive > 999_000 {
            throw ValidationError("--control-live must be 1 to 999000 (the daemon keeps at most 1,000,000 sessions)")
        }
        if let controlSeconds, controlSeconds <= 0 { throw ValidationError("--control-seconds must be above 0") }
        if let soakSeconds, soakSeconds < 10 { throw ValidationError("--soak-seconds must be at least 10") }
        if let postgresEvents, postgresEvents < 1 { throw ValidationError("--postgres-events must be at least 1") }
        if (try? memoryCounts()) == nil {
            throw ValidationError("--memory-sessions must be whole numbers of at least 2, comma-separated")
        }
        if (try? checkpointCounts()) == nil {
            throw ValidationError(
                "--checkpoint-sessions must be whole numbers of 1 to 1000000 (the daemon's max_sessions), comma-separated"
            )
        }
        if let checkpointSeconds, checkpointSeconds <= 0 {
            throw ValidationError("--checkpoint-seconds must be above 0")
        }
        let names = Self.measurements.map { $0.name }
        for name in selected where !names.contains(name) {
            throw ValidationError("unknown measurement '\(name)'; choose from \(names.joined(separator: ", "))")
        }
    }

    /// The measurements `--only` names, else those a run makes by default.
    private var selected: [String] {
        only.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            ?? Self.measurements.filter { $0.isDefault }.map { $0.name }
    }

    func profiles() throws -> [StreamGenerator.Profile] {
        let names = streams.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let found = names.compactMap(StreamGenerator.Profile.init(rawValue:))
        guard !found.isEmpty, found.count == names.count else { throw ValidationError("bad --streams") }
        return found
    }

    func scaleCounts() throws -> [Int] {
        let text = scaleSessions ?? (quick ? "1000,100000" : "1000,10000,100000,1000000")
        let counts = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 1 }) else { throw ValidationError("bad --scale-sessions") }
        return counts
    }

    func storeGroupSizes() throws -> [Int] {
        let sizes = storeGroups.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty, sizes.allSatisfy({ $0 >= 1 }) else { throw ValidationError("bad --store-groups") }
        return sizes
    }

    func memoryCounts() throws -> [Int] {
        let text = memorySessions ?? (quick ? "100000" : "100000,1000000")
        let counts = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 2 }) else { throw ValidationError("bad --memory-sessions") }
        return counts
    }

    func checkpointCounts() throws -> [Int] {
        let text = checkpointSessions ?? (quick ? "100000" : "100000,1000000")
        let counts = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 1 && $0 <= 1_000_000 }) else {
            throw ValidationError("bad --checkpoint-sessions")
        }
        return counts
    }

    /// Every measurement, in the order a run makes them.
    static var measurements: [any Measurement.Type] {
        [
            CeilingBenchmark.self, EndToEndBenchmark.self, LatencyBenchmark.self, ScalingBenchmark.self,
            MemoryBenchmark.self,
            StartupBenchmark.self, RestartBenchmark.self, EngineCostBenchmark.self, StoreBenchmark.self,
            ControlHoldBenchmark.self,
            StatusCostBenchmark.self, MicroBenchmarks.self, SoakBenchmark.self, PostgresBenchmark.self,
            CheckpointBenchmark.self,
        ]
    }

    func run() throws {
        let eventCount = events ?? (quick ? 200_000 : 1_000_000)
        let latencyDuration = latencySeconds ?? (quick ? 3 : 10)
        let want = Set(selected)
        let executable = try daemon ?? Self.daemonNextToMe()
        let root = try HelperCommand.repositoryRoot(daemon: executable)
        let generated = MonotonicClock.nanoseconds()
        let needed = max(eventCount, want.contains(LatencyBenchmark.name) ? Int(latencyRate * latencyDuration) : 0)
        let stream = try StreamGenerator(root: root, events: needed, sessions: sessions, seed: seed).generate()
        let measured = EventStream(bytes: stream.bytes, offsets: Array(stream.offsets.prefix(eventCount + 1)))
        Self.say(
            "stream: \(measured.count) events, \(sessions) concurrent sessions, \(Figure.format(measured.averageEventBytes, 1)) bytes per event on average (generated in \(Figure.format(MonotonicClock.seconds(from: generated, to: MonotonicClock.nanoseconds()), 2)) s)"
        )

        let registry = ChildRegistry()
        defer { registry.cleanUp() }
        let folder = try Self.makeTemporaryFolder()
        registry.add(folder: folder)
        let run = BenchRun(
            options: self,
            generated: stream,
            measured: measured,
            executable: executable,
            folder: folder,
            registry: registry,
            eventCount: eventCount,
            runs: repeatCount ?? (quick ? 1 : 3),
            latencySeconds: latencyDuration
        )
        describe(run)
        for measurement in Self.measurements where want.contains(measurement.name) {
            run.attempt(measurement.name) { try measurement.measure(in: run) }
        }
        run.table.targets = run.targets()
        run.table.context.append(("load average at end", MachineInfo.loadAverage()))
        try write(run)
    }

    /// The run's context: the date, the command, the machine, the daemon, the stream.
    private func describe(_ run: BenchRun) {
        let average = run.measured.averageEventBytes
        run.table.context.append(("date", ISO8601DateFormatter().string(from: Date())))
        run.table.context.append(
            (
                "command",
                CommandLine.arguments.map {
                    URL(fileURLWithPath: $0).lastPathComponent == "modalwatch-bench" ? "modalwatch-bench" : $0
                }.joined(separator: " ")
            )
        )
        run.table.context.append(("toolchain", MachineInfo.toolchain()))
        run.table.context += MachineInfo.describe()
        run.table.context.append(("load average at start", MachineInfo.loadAverage()))
        run.table.context.append(("daemon", run.executable))
        run.table.context.append(
            (
                "stream",
                "\(run.measured.count) events, \(sessions) concurrent sessions, seed \(seed), \(Figure.format(average, 1)) bytes per event"
            )
        )
        run.table.context.append(("runs per throughput figure", "\(run.runs) (median)"))
        run.table.add(
            Figure(
                key: "stream_average_event_bytes",
                name: "stream: bytes per event (average)",
                value: average,
                unit: "bytes",
                display: Figure.format(average, 1),
                target: "~180"
            )
        )
    }

    /// Prints the table and the failures, writes `--output`.json and .md; fails when a measurement did.
    private func write(_ run: BenchRun) throws {
        print("")
        print(run.table.text())
        for failure in run.failures { print("failed: \(failure)") }
        do {
            try run.table.json().write(toFile: output + ".json", atomically: true, encoding: .utf8)
            try run.table.markdown().write(toFile: output + ".md", atomically: true, encoding: .utf8)
            print("\nwritten: \(output).json, \(output).md")
        } catch {
            throw BenchError("cannot write \(output).json / .md: \(error.localizedDescription)")
        }
        // A run of the default measurements writes the figures file; a run with --only, only when asked.
        let figures = try targets ?? (only == nil ? run.repositoryRoot() + "/bench/results/targets.md" : "")
        if !figures.isEmpty {
            do {
                try run.table.targetsMarkdown().write(toFile: figures, atomically: true, encoding: .utf8)
                print("written: \(figures)")
            } catch {
                throw BenchError("cannot write \(figures): \(error.localizedDescription)")
            }
        }
        if !run.failures.isEmpty { throw ExitCode(1) }
    }

    /// 100000 → "10^5".
    static func power(_ count: Int) -> String {
        var exponent = 0
        var rest = count
        while rest >= 10 && rest % 10 == 0 {
            rest /= 10
            exponent += 1
        }
        return rest == 1 ? "10^\(exponent)" : "\(count)"
    }

    static func say(_ line: String) {
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
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
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
            throw BenchError(
                "no modalwatchd at \(candidates.joined(separator: " or ")); run `swift build -c release` in the root package first, or pass --daemon PATH"
            )
        }
        return path
    }
}
