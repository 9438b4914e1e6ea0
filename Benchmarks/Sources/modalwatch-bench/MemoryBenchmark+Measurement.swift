import Foundation

/// `memory`: RSS per idle session at each of `--memory-sessions`.
extension MemoryBenchmark: Measurement {
    static let name = "memory"

    static func measure(in run: BenchRun) throws {
        let options = run.options
        for count in try options.memoryCounts() {
            ModalwatchBench.say("memory: \(count) idle sessions")
            run.attempt("memory \(count)") {
                let result = try MemoryBenchmark(
                    executable: run.executable,
                    folder: run.folder,
                    registry: run.registry,
                    sessions: count,
                    rate: options.memoryRate,
                    seed: options.seed &+ 1
                ).run()
                run.table.add(
                    Figure(
                        key: "rss_per_idle_session_\(count)",
                        name: "RSS per idle session at \(ModalwatchBench.power(count)) sessions",
                        value: result.perSession,
                        unit: "bytes",
                        display: Figure.format(result.perSession, 0) + " B",
                        target: "≤ 1 KiB",
                        met: result.perSession <= 1024
                    )
                )
                run.table.details.append(
                    (
                        "memory \(count)",
                        [
                            ("rss_before_bytes", "\(result.before)"), ("rss_after_bytes", "\(result.after)"),
                            ("bytes_per_session", Figure.format(result.perSession, 1)),
                            ("seconds_to_live", Figure.format(result.seconds, 3)),
                        ] + result.details.map { ($0.0, "\($0.1)") }
                    )
                )
                ModalwatchBench.say(
                    "  \(count) sessions: RSS \(result.before / 1024) KiB → \(result.after / 1024) KiB, \(Figure.format(result.perSession, 0)) B per session"
                )
            }
        }
    }
}
