import Foundation

/// `ready`: start → READY=1, the median of `--ready-runs` launches.
extension StartupBenchmark: Measurement {
    static let name = "ready"

    static func measure(in run: BenchRun) throws {
        let launches = run.options.readyRuns ?? (run.options.quick ? 3 : 5)
        ModalwatchBench.say("start to READY: \(launches) launches")
        let times = try StartupBenchmark(
            executable: run.executable,
            folder: run.folder,
            registry: run.registry,
            runs: launches
        ).run()
        let sorted = times.sorted()
        let median = sorted[(sorted.count - 1) / 2]
        run.table.add(
            Figure(
                key: "ready_ms_median",
                name: "start → READY (median of \(times.count); max)",
                value: median,
                unit: "ms",
                display: "\(Figure.format(median, 1)) ms; \(Figure.format(sorted.last!, 1)) ms",
                target: "< 200 ms",
                met: median < 200
            )
        )
        run.table.details.append(("ready", [("ms", times.map { Figure.format($0, 1) }.joined(separator: " "))]))
    }
}
