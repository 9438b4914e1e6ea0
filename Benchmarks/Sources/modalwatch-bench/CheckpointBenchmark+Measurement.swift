import Foundation
import Histogram

/// `checkpoint` (only with `--only`): at each of `--checkpoint-sessions` live idle sessions, the
/// checkpoint's bytes and a walk's time from its header's time to its rename, the CPU per second
/// of the writer (`mw-sessions`) and of the ingest thread's slices (`mw-ingest` at
/// `checkpoint_interval: 1s` less at `1h`, idle), the restore after a SIGKILL (`took_ms`, start →
/// READY); then `--repeat` latency runs each at 1h and at 1s, alternating, on the stress stream
/// over that many sessions (prefilled, as `scaling`) at `--latency-rate` for `--latency-seconds`:
/// what checkpointing adds to the p99, and the checkpoints' share of the ingest thread's CPU.
extension CheckpointBenchmark: Measurement {
    static let name = "checkpoint"
    static let isDefault = false

    static func measure(in run: BenchRun) throws {
        let options = run.options
        let counts = try options.checkpointCounts()
        let window = options.checkpointSeconds ?? (options.quick ? 4 : 10)
        let rate = options.latencyRate
        let seconds = run.latencySeconds
        let folder = run.folder
        let frequentConfig = try configFile(in: folder, interval: "1s")
        let rareConfig = try configFile(in: folder, interval: "1h")
        ModalwatchBench.say(
            "checkpoint: \(counts.map(ModalwatchBench.power).joined(separator: ", ")) idle sessions at checkpoint_interval 1s and 1h, \(Figure.format(window, 0)) s windows, a restore after SIGKILL; \(run.runs) latency runs each at \(Figure.rate(rate)) for \(Figure.format(seconds, 1)) s"
        )
        for count in counts {
            let label = ModalwatchBench.power(count)
            var measured: Result?
            run.attempt("checkpoint \(label) idle") {
                let bench = CheckpointBenchmark(
                    executable: run.executable,
                    folder: folder,
                    registry: run.registry,
                    sessions: count,
                    seed: options.seed &+ 3,
                    windowSeconds: window
                )
                let (frequent, restore) = try bench.frequent(config: frequentConfig)
                guard frequent.walksInWindow > 0 else {
                    throw BenchError("no walk ended in the window at \(label) sessions")
                }
                say(frequent, restore, label: label)
                let rare = try bench.rare(config: rareConfig)
                measured = Result(requested: count, frequent: frequent, rare: rare, restore: restore)
            }
            guard var result = measured else { continue }
            run.attempt("checkpoint \(label) latency") {
                // The stress stream over `count` sessions, as `scaling`: its first `count` events start them.
                let scaled = try run.generator(events: count + Int(rate * seconds), sessions: count).generate()
                let prefill = scaled.messages(first: count, batch: options.batch)
                let rest = scaled.dropping(first: count)
                var frequent = Loaded()
                var rare = Loaded()
                for index in 0..<run.runs {
                    for (interval, config) in [("1h", rareConfig), ("1s", frequentConfig)] {
                        var bench = LatencyBenchmark(
                            executable: run.executable,
                            folder: folder,
                            registry: run.registry,
                            stream: rest,
                            rate: rate,
                            seconds: seconds,
                            probeEvery: options.probeEvery
                        )
                        bench.prefill = prefill
                        bench.config = config
                        bench.logLevel = "debug"
                        let outcome = try bench.run()
                        guard outcome.latency.totalCount > 0 else {
                            throw BenchError("no probe violation came back (\(outcome.probes) probes sent)")
                        }
                        if interval == "1s" {
                            frequent.add(outcome, sessions: count)
                        } else {
                            rare.add(outcome, sessions: count)
                        }
                        ModalwatchBench.say(
                            "  \(label) sessions, checkpoint_interval \(interval), run \(index + 1)/\(run.runs): p99 \(Figure.duration(nanoseconds: Double(outcome.latency.valueAtPercentile(99)))), mw-ingest \(milliseconds(outcome.ingestCPUPerSecond)) ms/s, mw-sessions \(milliseconds(outcome.checkpointCPUPerSecond)) ms/s; \(outcome.received)/\(outcome.probes) probes"
                        )
                    }
                }
                result.loadedFrequent = frequent
                result.loadedRare = rare
            }
            run.checkpoints.append(result)
            add(result, rate: rate, to: run)
        }
    }

    /// The rows and details of one session count.
    private static func add(_ result: Result, rate: Double, to run: BenchRun) {
        let label = ModalwatchBench.power(result.requested)
        let frequent = result.frequent
        let rare = result.rare
        let restore = result.restore
        let walks = Array(frequent.walks.dropFirst())
        let bytes = frequent.walks.last?.bytes ?? 0
        let perSession = Double(bytes) / Double(max(1, frequent.sessions))
        run.table.add(
            Figure(
                key: "checkpoint_\(result.requested)_bytes",
                name: "checkpoint at \(label) sessions: size on disk",
                value: Double(bytes),
                unit: "bytes",
                display: "\(Figure.format(Double(bytes) / 1e6, 1)) MB (\(Figure.format(perSession, 1)) B a session)"
            )
        )
        let endToEnd = walks.map(\.endToEndMs)
        let medianWalk = Loaded.median(endToEnd)
        let longer = (medianWalk ?? 0) > 1000 ? "; longer than the 1 s interval: walks back to back" : ""
        run.table.add(
            Figure(
                key: "checkpoint_\(result.requested)_walk_ms",
                name: "↳ walk at \(label): header's time → rename (median, max; \(walks.count) walks)",
                value: medianWalk,
                unit: "ms",
                display:
                    "\(medianWalk.map { Figure.format($0, 0) } ?? "-") ms, max \(Figure.format(endToEnd.max() ?? 0, 0)) ms (daemon's took_ms median \(Loaded.median(frequent.loggedTookMs.map(Double.init)).map { Figure.format($0, 0) } ?? "-"))\(longer)"
            )
        )
        let writerPerWalk = frequent.checkpointCPUPerSecond.map {
            $0 * frequent.windowSeconds / Double(frequent.walksInWindow)
        }
        run.table.add(
            Figure(
                key: "checkpoint_\(result.requested)_writer_cpu_per_second",
                name: "↳ mw-sessions CPU per second at 1s, idle (\(label))",
                value: frequent.checkpointCPUPerSecond.map { $0 * 1000 },
                unit: "ms/s",
                display:
                    "\(milliseconds(frequent.checkpointCPUPerSecond)) ms/s (\(writerPerWalk.map { Figure.format($0 * 1000, 0) } ?? "-") ms a walk, \(writerPerWalk.map { Figure.format($0 * 1e9 / Double(max(1, frequent.sessions)), 0) } ?? "-") ns a session)"
            )
        )
        let slicesPerWalk = result.slicesCPUPerSecond.map {
            $0 * frequent.windowSeconds / Double(frequent.walksInWindow)
        }
        run.table.add(
            Figure(
                key: "checkpoint_\(result.requested)_slices_cpu_per_second",
                name: "↳ mw-ingest CPU per second, 1s − 1h, idle: the slices (\(label))",
                value: result.slicesCPUPerSecond.map { $0 * 1000 },
                unit: "ms/s",
                display:
                    "\(milliseconds(result.slicesCPUPerSecond)) ms/s (1s \(milliseconds(frequent.ingestCPUPerSecond)), 1h \(milliseconds(rare.ingestCPUPerSecond)); \(slicesPerWalk.map { Figure.format($0 * 1000, 1) } ?? "-") ms a walk)"
            )
        )
        if let loadedFrequent = result.loadedFrequent, let loadedRare = result.loadedRare {
            let p99Frequent = Loaded.median(loadedFrequent.p99)
            let p99Rare = Loaded.median(loadedRare.p99)
            let added = result.p99Added
            run.table.add(
                Figure(
                    key: "checkpoint_\(result.requested)_p99_added_ns",
                    name:
                        "↳ p99 at \(Figure.rate(rate)), \(label) sessions: 1s − 1h (medians of \(loadedFrequent.p99.count))",
                    value: added,
                    unit: "ns",
                    display:
                        "\(added.map { ($0 >= 0 ? "+" : "-") + Figure.duration(nanoseconds: abs($0)) } ?? "-") (1s \(p99Frequent.map { Figure.duration(nanoseconds: $0) } ?? "-"), 1h \(p99Rare.map { Figure.duration(nanoseconds: $0) } ?? "-"))",
                    target: "≤ 1 ms",
                    met: added.map { $0 <= 1e6 }
                )
            )
            let underLoad = Loaded.median(loadedFrequent.walksTookMs.map(Double.init))
            run.table.add(
                Figure(
                    key: "checkpoint_\(result.requested)_loaded_walk_ms",
                    name:
                        "↳ walk at \(label) under \(Figure.rate(rate)): the daemon's took_ms (median of \(loadedFrequent.walksTookMs.count))",
                    value: underLoad,
                    unit: "ms",
                    display: underLoad.map {
                        "\(Figure.format($0, 0)) ms (max \(loadedFrequent.walksTookMs.max().map(String.init) ?? "-") ms; idle \(medianWalk.map { Figure.format($0, 0) } ?? "-") ms)"
                    }
                        ?? "none ended within a daemon's run (\(Figure.format(run.latencySeconds, 0)) s of stream after the prefill)"
                )
            )
            let share = result.ingestShare
            run.table.add(
                Figure(
                    key: "checkpoint_\(result.requested)_ingest_share",
                    name:
                        "↳ checkpoints' share of mw-ingest's CPU at \(Figure.rate(rate)), \(label) sessions: (1s − 1h) / 1s",
                    value: share.map { $0 * 100 },
                    unit: "%",
                    display:
                        "\(percent(share)) (mw-ingest \(milliseconds(Loaded.median(loadedFrequent.ingestCPUPerSecond))) ms/s at 1s, \(milliseconds(Loaded.median(loadedRare.ingestCPUPerSecond))) at 1h; the slices at their idle pace, \(milliseconds(result.slicesCPUPerSecond)) ms/s: \(percent(result.idleSlicesShare)))",
                    target: "≤ 5 %",
                    met: share.map { $0 <= 0.05 }
                )
            )
        }
        let restoreText =
            "\(restore.tookMs.map { "\($0) ms" } ?? "no restore line"); READY \(Figure.format(restore.readySeconds, 2)) s; \(restore.sessionsLive)/\(restore.checkpointSessions) restored"
        run.table.add(
            Figure(
                key: "checkpoint_\(result.requested)_restore_ms",
                name: "↳ restore at \(label) after SIGKILL: took_ms; start → READY",
                value: restore.tookMs.map(Double.init),
                unit: "ms",
                display: restoreText,
                target: "< 5 s",
                met: restore.readySeconds < 5 && restore.sessionsLive >= restore.checkpointSessions
            )
        )

        var pairs: [(String, String)] = [
            ("sessions", "\(frequent.sessions)"), ("fill_seconds_1s", Figure.format(frequent.fillSeconds, 3)),
            ("fill_seconds_1h", Figure.format(rare.fillSeconds, 3)), ("checkpoint_bytes", "\(bytes)"),
            ("window_seconds_1s", Figure.format(frequent.windowSeconds, 3)),
            ("window_seconds_1h", Figure.format(rare.windowSeconds, 3)),
            ("walks_in_window", "\(frequent.walksInWindow)"),
            ("walk_end_to_end_ms", endToEnd.map { Figure.format($0, 1) }.joined(separator: " ")),
            (
                "walk_periods_ms",
                zip(frequent.walks, frequent.walks.dropFirst()).map { "\($1.writtenAtMs - $0.writtenAtMs)" }.joined(
                    separator: " "
                )
            ),
            ("daemon_took_ms", frequent.loggedTookMs.map(String.init).joined(separator: " ")),
            ("ingest_cpu_ms_per_s_1s", milliseconds(frequent.ingestCPUPerSecond, 3)),
            ("ingest_cpu_ms_per_s_1h", milliseconds(rare.ingestCPUPerSecond, 3)),
            ("writer_cpu_ms_per_s_1s", milliseconds(frequent.checkpointCPUPerSecond, 3)),
            ("writer_cpu_ms_per_s_1h", milliseconds(rare.checkpointCPUPerSecond, 3)),
            ("daemon_cpu_ms_1s", Figure.format(frequent.cpu.daemon * 1000, 0)),
            ("others_cpu_ms_1s", Figure.format(frequent.cpu.others * 1000, 0)),
            ("daemon_cpu_ms_1h", Figure.format(rare.cpu.daemon * 1000, 0)),
            ("others_cpu_ms_1h", Figure.format(rare.cpu.others * 1000, 0)),
            ("restore_checkpoint_sessions", "\(restore.checkpointSessions)"),
            ("restore_took_ms", restore.tookMs.map(String.init) ?? "-"),
            ("restore_logged_sessions", restore.loggedSessions.map(String.init) ?? "-"),
            ("restore_ready_seconds", Figure.format(restore.readySeconds, 3)),
            ("restore_sessions_live", "\(restore.sessionsLive)"),
        ]
        for (interval, loaded) in [("1s", result.loadedFrequent), ("1h", result.loadedRare)] {
            guard let loaded else { continue }
            pairs += [
                ("latency_\(interval)_p50_ns", loaded.p50.map { Figure.format($0, 0) }.joined(separator: " ")),
                ("latency_\(interval)_p99_ns", loaded.p99.map { Figure.format($0, 0) }.joined(separator: " ")),
                ("latency_\(interval)_p99_9_ns", loaded.p99_9.map { Figure.format($0, 0) }.joined(separator: " ")),
                (
                    "latency_\(interval)_ingest_cpu_ms_per_s",
                    loaded.ingestCPUPerSecond.map { Figure.format($0 * 1000, 1) }.joined(separator: " ")
                ),
                (
                    "latency_\(interval)_writer_cpu_ms_per_s",
                    loaded.checkpointCPUPerSecond.map { Figure.format($0 * 1000, 1) }.joined(separator: " ")
                ),
                (
                    "latency_\(interval)_offered_events_per_second",
                    loaded.offeredRate.map { Figure.format($0, 0) }.joined(separator: " ")
                ),
                ("latency_\(interval)_probes_received", "\(loaded.received)/\(loaded.probes)"),
                ("latency_\(interval)_others_cpu_ms", loaded.othersCPUMs.map(String.init).joined(separator: " ")),
                (
                    "latency_\(interval)_max_ingest_backlog_events",
                    loaded.maxIngestBacklog.map(String.init).joined(separator: " ")
                ),
                ("latency_\(interval)_walks_took_ms", loaded.walksTookMs.map(String.init).joined(separator: " ")),
            ]
        }
        run.table.details.append(("checkpoint \(label)", pairs))
    }

    private static func say(_ frequent: Idle, _ restore: Restore, label: String) {
        let walks = frequent.walks.dropFirst().map(\.endToEndMs)
        ModalwatchBench.say(
            "  \(label) sessions: checkpoint \(frequent.walks.last?.bytes ?? 0) B; walks \(walks.map { Figure.format($0, 0) }.joined(separator: " ")) ms; mw-sessions \(milliseconds(frequent.checkpointCPUPerSecond)) ms/s, mw-ingest \(milliseconds(frequent.ingestCPUPerSecond)) ms/s at 1s; restore \(restore.tookMs.map { "\($0) ms" } ?? "?"), READY \(Figure.format(restore.readySeconds, 2)) s, \(restore.sessionsLive) restored"
        )
    }

    /// CPU seconds per second as ms per second.
    private static func milliseconds(_ perSecond: Double?, _ decimals: Int = 1) -> String {
        perSecond.map { Figure.format($0 * 1000, decimals) } ?? "-"
    }

    private static func percent(_ share: Double?) -> String {
        share.map { Figure.format($0 * 100, 1) + " %" } ?? "-"
    }
}

extension CheckpointBenchmark.Loaded {
    /// Adds one latency run's figures; its daemon's walks of at least `sessions` sessions.
    mutating func add(_ outcome: LatencyBenchmark.Result, sessions: Int) {
        p50.append(Double(outcome.latency.valueAtPercentile(50)))
        p99.append(Double(outcome.latency.valueAtPercentile(99)))
        p99_9.append(Double(outcome.latency.valueAtPercentile(99.9)))
        if let ingest = outcome.ingestCPUPerSecond { ingestCPUPerSecond.append(ingest) }
        if let writer = outcome.checkpointCPUPerSecond { checkpointCPUPerSecond.append(writer) }
        probes += outcome.probes
        received += outcome.received
        offeredRate.append(outcome.offeredRate)
        let details = Dictionary(outcome.details, uniquingKeysWith: { first, _ in first })
        othersCPUMs.append(details["others_cpu_ms"] ?? 0)
        maxIngestBacklog.append(details["max_ingest_backlog_events"] ?? 0)
        let log = (try? String(contentsOfFile: outcome.daemonLog, encoding: .utf8)) ?? ""
        walksTookMs += CheckpointBenchmark.walksTookMs(
            log.split(separator: "\n").filter { $0.contains(CheckpointBenchmark.writtenLine) },
            sessions: sessions
        )
    }
}
