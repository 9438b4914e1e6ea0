import Foundation

/// `restart`: at `--restart-sessions` live sessions, SIGTERM → exit (the snapshot written), its
/// bytes per session, and a second daemon's start → READY (the snapshot restored).
extension RestartBenchmark: Measurement {
    static let name = "restart"

    static func measure(in run: BenchRun) throws {
        let count = run.options.restartSessions ?? (run.options.quick ? 100_000 : 1_000_000)
        ModalwatchBench.say(
            "restart: \(count) live sessions, SIGTERM → exit, then a second daemon on the same state → READY"
        )
        let result = try RestartBenchmark(
            executable: run.executable,
            folder: run.folder,
            registry: run.registry,
            sessions: count,
            seed: run.options.seed &+ 2
        ).run()
        run.restart = result
        let label = ModalwatchBench.power(result.requested)
        run.table.add(
            Figure(
                key: "restart_stop_seconds",
                name: "restart at \(label) sessions: SIGTERM → exit (snapshot written)",
                value: result.stopSeconds,
                unit: "s",
                display: Figure.format(result.stopSeconds, 2) + " s",
                target: "< 5 s",
                met: result.stopSeconds < 5
            )
        )
        run.table.add(
            Figure(
                key: "restart_ready_seconds",
                name: "restart at \(label) sessions: start → READY (snapshot restored)",
                value: result.readySeconds,
                unit: "s",
                display: Figure.format(result.readySeconds, 2) + " s; \(result.restored) restored",
                target: "< 5 s, all restored",
                met: result.readySeconds < 5 && result.restored >= result.sessions
            )
        )
        run.table.add(
            Figure(
                key: "restart_snapshot_bytes_per_session",
                name: "restart: snapshot bytes per session",
                value: result.bytesPerSession,
                unit: "bytes",
                display: Figure.format(result.bytesPerSession, 1) + " B (\(result.snapshotBytes) B)",
                target: "≤ 150 B",
                met: result.bytesPerSession <= 150
            )
        )
        run.table.details.append(
            (
                "restart",
                [
                    ("sessions", "\(result.sessions)"), ("fill_seconds", Figure.format(result.fillSeconds, 3)),
                    ("stop_seconds", Figure.format(result.stopSeconds, 3)), ("exit_status", "\(result.exitStatus)"),
                    ("snapshot_bytes", "\(result.snapshotBytes)"),
                    ("ready_seconds", Figure.format(result.readySeconds, 3)),
                    ("restored", "\(result.restored)"),
                ]
            )
        )
        ModalwatchBench.say(
            "  stop \(Figure.format(result.stopSeconds, 2)) s, snapshot \(Figure.format(result.bytesPerSession, 1)) B/session, READY \(Figure.format(result.readySeconds, 2)) s, \(result.restored)/\(result.sessions) restored"
        )
    }
}
