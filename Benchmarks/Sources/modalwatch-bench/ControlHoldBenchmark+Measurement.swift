import Foundation

/// `control`: the longest hold of the ingest thread by a control request under load
/// (`bench/control_hold.py`), and the events lost meanwhile.
extension ControlHoldBenchmark: Measurement {
    static let name = "control"

    static func measure(in run: BenchRun) throws {
        let live = run.options.controlLive ?? (run.options.quick ? 20_000 : 100_000)
        let seconds = run.options.controlSeconds ?? (run.options.quick ? 4 : 10)
        ModalwatchBench.say(
            "control: every request at its largest for \(Figure.format(seconds, 0)) s with \(live) live sessions and a steady stream (bench/control_hold.py)"
        )
        let control = try ControlHoldBenchmark(
            root: try run.repositoryRoot(),
            executable: run.executable,
            folder: run.folder,
            live: live,
            seconds: seconds
        ).run(registry: run.registry)
        run.control = control
        run.table.add(
            Figure(
                key: "control_hold_cpu_max_us",
                name: "control: longest hold of the ingest thread, CPU (\(live) live sessions)",
                value: control.longestCPUMicroseconds,
                unit: "µs",
                display:
                    "\(Figure.format(control.longestCPUMicroseconds, 0)) µs (\(control.longestRequest)); wall \(Figure.format(control.longestWallMicroseconds, 0)) µs"
            )
        )
        run.table.add(
            Figure(
                key: "control_events_lost",
                name: "↳ events lost meanwhile",
                value: Double(control.streamEvents - control.eventsReceived),
                unit: "events",
                display: "\(control.streamEvents - control.eventsReceived) of \(control.streamEvents)"
            )
        )
    }
}
