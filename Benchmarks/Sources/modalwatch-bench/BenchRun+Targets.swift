import Foundation

/// The Targets table: every target in docs/PERFORMANCE.md with this run's figure and whether it is
/// met; a target this run did not measure says which `--only` does.
extension BenchRun {
    func targets() -> [Figure] {
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
                rows.append(
                    Figure(
                        key: "target_\(stream)_\(kind)_ratio",
                        name: "\(stream): end to end / ceiling, \(batched ? "batches" : "single events")",
                        value: found?.ratio,
                        unit: "",
                        display: display,
                        target: "≥ 0.5",
                        met: found?.ratio.map { $0 >= 0.5 }
                    )
                )
            }
        }
        let wantedLatencyRates = latencyRates
        for (index, rate) in wantedLatencyRates.enumerated() {
            let found = latencyRuns.first { $0.rate == rate }
            let key = index == 0 ? "target_latency_p99_ns" : "target_latency_\(Int(rate / 1000))k_p99_ns"
            rows.append(
                Figure(
                    key: key,
                    name: "stress: p99 sent → violation at \(Figure.rate(rate)) (stored, then published)",
                    value: found?.p99,
                    unit: "ns",
                    display: found.map { Figure.duration(nanoseconds: $0.p99) } ?? "not measured",
                    target: "< 1 ms",
                    met: found.map { $0.p99 < 1e6 }
                )
            )
        }
        // The publishing thread at the steady rate of the first latency run: CPU per violation stored.
        let steady = wantedLatencyRates.first.flatMap { rate in latencyRuns.first { $0.rate == rate } }
        rows.append(
            Figure(
                key: "target_publishing_cpu_per_stored_violation",
                name:
                    "publishing thread: CPU per stored violation, steady \(wantedLatencyRates.first.map { Figure.rate($0) } ?? "rate") (latency run)",
                value: steady?.publishingMicroseconds,
                unit: "µs",
                display: steady?.publishingMicroseconds.map {
                    Figure.format($0, 2) + " µs (\(steady?.violationsStored ?? 0) stored)"
                } ?? "not measured (--only latency)",
                target: "≤ 2 µs",
                met: steady?.publishingMicroseconds.map { $0 <= 2 }
            )
        )
        let label = restart.map { ModalwatchBench.power($0.requested) } ?? "10^6"
        rows.append(
            Figure(
                key: "target_restart_stop_seconds",
                name: "restart at \(label) sessions: stop",
                value: restart?.stopSeconds,
                unit: "s",
                display: restart.map { Figure.format($0.stopSeconds, 2) + " s" } ?? "not measured",
                target: "< 5 s",
                met: restart.map { $0.stopSeconds < 5 }
            )
        )
        rows.append(
            Figure(
                key: "target_restart_ready_seconds",
                name: "restart at \(label) sessions: READY after",
                value: restart?.readySeconds,
                unit: "s",
                display: restart.map { Figure.format($0.readySeconds, 2) + " s" } ?? "not measured",
                target: "< 5 s",
                met: restart.map { $0.readySeconds < 5 && $0.restored >= $0.sessions }
            )
        )
        rows.append(
            Figure(
                key: "target_restart_snapshot_bytes_per_session",
                name: "restart: snapshot per session",
                value: restart?.bytesPerSession,
                unit: "bytes",
                display: restart.map { Figure.format($0.bytesPerSession, 1) + " B" } ?? "not measured",
                target: "≤ 150 B",
                met: restart.map { $0.bytesPerSession <= 150 }
            )
        )
        rows += tableTargets()
        rows += checkpointTargets()
        rows += workTargets()
        return rows
    }

    /// The targets whose figures are rows of the result table as they are: RSS per idle session
    /// (`memory`) and start → READY (`ready`).
    private func tableTargets() -> [Figure] {
        let memory = table.figures.filter { $0.key.hasPrefix("rss_per_idle_session_") }
        let ready = table.figures.filter { $0.key == "ready_ms_median" }
        return
            (memory.isEmpty
            ? [
                Figure(
                    key: "rss_per_idle_session",
                    name: "RSS per idle session",
                    value: nil,
                    unit: "bytes",
                    display: "not measured (--only memory)",
                    target: "≤ 1 KiB"
                )
            ] : memory)
            + (ready.isEmpty
                ? [
                    Figure(
                        key: "ready_ms_median",
                        name: "start → READY",
                        value: nil,
                        unit: "ms",
                        display: "not measured (--only ready)",
                        target: "< 200 ms"
                    )
                ] : ready)
    }

    /// The targets measured by `checkpoint`, at its largest session count.
    private func checkpointTargets() -> [Figure] {
        let largest = checkpoints.max { $0.requested < $1.requested }
        let label = largest.map { ModalwatchBench.power($0.requested) } ?? "10^6"
        let missing = "not measured (--only checkpoint)"
        let restore = largest?.restore
        var rows = [
            Figure(
                key: "target_checkpoint_restore_seconds",
                name: "checkpoint restore at \(label) sessions after SIGKILL: start → READY",
                value: restore?.readySeconds,
                unit: "s",
                display: restore.map {
                    "\(Figure.format($0.readySeconds, 2)) s (took_ms \($0.tookMs.map(String.init) ?? "-"); \($0.sessionsLive) restored)"
                } ?? missing,
                target: "< 5 s",
                met: restore.map { $0.readySeconds < 5 && $0.sessionsLive >= $0.checkpointSessions }
            )
        ]
        let share = largest?.ingestShare
        rows.append(
            Figure(
                key: "target_checkpoint_ingest_share",
                name:
                    "checkpoints' share of the ingest thread's CPU at \(label) sessions, \(Figure.rate(options.latencyRate)), every 1 s",
                value: share.map { $0 * 100 },
                unit: "%",
                display: share.map { Figure.format($0 * 100, 1) + " %" } ?? missing,
                target: "≤ 5 %",
                met: share.map { $0 <= 0.05 }
            )
        )
        let added = largest?.p99Added
        rows.append(
            Figure(
                key: "target_checkpoint_p99_added_ns",
                name: "checkpoints every 1 s add to the p99 at \(label) sessions, \(Figure.rate(options.latencyRate))",
                value: added,
                unit: "ns",
                display: added.map { ($0 >= 0 ? "+" : "-") + Figure.duration(nanoseconds: abs($0)) } ?? missing,
                target: "≤ 1 ms",
                met: added.map { $0 <= 1e6 }
            )
        )
        return rows
    }

    /// The targets measured by `cost`, `store`, `control` and `micro`.
    private func workTargets() -> [Figure] {
        var rows: [Figure] = []
        func add(
            _ key: String,
            _ name: String,
            _ target: String,
            _ value: Double?,
            _ display: (Double) -> String,
            _ met: (Double) -> Bool,
            missing: String
        ) {
            rows.append(
                Figure(
                    key: key,
                    name: name,
                    value: value,
                    unit: "",
                    display: value.map(display) ?? "not measured (\(missing))",
                    target: target,
                    met: value.map(met)
                )
            )
        }
        add(
            "target_clean_event_instructions",
            "instructions per clean event (callgrind)",
            "≤ 1,500",
            cost?.perCleanEvent["total"],
            { Figure.grouped($0) },
            { $0 <= 1500 },
            missing: "--only cost"
        )
        add(
            "target_violation_instructions",
            "instructions per violation, more (callgrind)",
            "≤ 4,000",
            cost?.perViolation["total"],
            { Figure.grouped($0) },
            { $0 <= 4000 },
            missing: "--only cost"
        )
        // malloc / retain / release per clean event; the target is met when the largest is (about) none.
        let calls = ["malloc", "swift_retain", "swift_release"].map { cost?.perCleanEvent[$0] ?? 0 }
        add(
            "target_event_allocations",
            "heap allocations, retain/release per clean event",
            "none",
            cost.map { _ in calls.max() ?? 0 },
            { _ in calls.map { Figure.format($0, 2) }.joined(separator: " / ") },
            { $0 < 0.01 },
            missing: "--only cost"
        )
        let big = store?.commits.max { $0.groupSize < $1.groupSize }
        let label = big.map { "commits of \($0.groupSize)" } ?? "commits"
        add(
            "target_store_cpu",
            "store: CPU per stored violation (\(label))",
            "≤ 5 µs",
            big?.cpuMicrosecondsPerViolation,
            { Figure.format($0, 2) + " µs" },
            { $0 <= 5 },
            missing: "--only store"
        )
        add(
            "target_store_wal",
            "store: WAL pages per stored violation (\(label))",
            "≤ 0.5",
            big?.walPagesPerViolation,
            { Figure.format($0, 3) },
            { $0 <= 0.5 },
            missing: "--only store"
        )
        add(
            "target_store_rate",
            "store: violations stored per second (\(label))",
            "≥ 200 k/s",
            big?.violationsPerSecond,
            { Figure.rate($0, unit: "/s") },
            { $0 >= 200_000 },
            missing: "--only store"
        )
        let large = store?.commits.filter { $0.groupSize >= 100 }.max {
            $0.walPagesPerViolation < $1.walPagesPerViolation
        }
        add(
            "target_store_wal_any",
            "store: WAL pages per stored violation, worst commit size ≥ 100 (\(large.map { "commits of \($0.groupSize)" } ?? "none"))",
            "≤ 2",
            large?.walPagesPerViolation,
            { Figure.format($0, 3) },
            { $0 <= 2 },
            missing: "--only store with a --store-groups size ≥ 100"
        )
        let slowest = store?.queries.max { $0.milliseconds < $1.milliseconds }
        add(
            "target_store_queries",
            "store: slowest query on \(store?.historyRows ?? 0) stored violations (\(slowest?.name ?? "none"))",
            "≤ 5 ms",
            slowest?.milliseconds,
            { Figure.format($0, 2) + " ms" },
            { $0 <= 5 },
            missing: "--only store"
        )
        for query in store?.queries ?? [] {
            add(
                "target_store_query_" + query.key,
                "↳ query: \(query.name)",
                "≤ 5 ms",
                query.milliseconds,
                { Figure.format($0, 2) + " ms (\(query.rows) rows)" },
                { $0 <= 5 },
                missing: "--only store"
            )
        }
        add(
            "target_store_retention",
            "store: retention's longest hold of the writer, \(store?.retention?.deleted ?? 0) rows deleted in slices",
            "≤ 10 ms",
            store?.retention?.longestMilliseconds,
            { Figure.format($0, 2) + " ms" },
            { $0 <= 10 },
            missing: "--only store"
        )
        add(
            "target_control_hold",
            "control request's longest hold on the ingest thread (CPU)",
            "≤ 1 ms",
            control?.longestCPUMicroseconds,
            { Figure.format($0, 0) + " µs" },
            { $0 <= 1000 },
            missing: "--only control"
        )
        rows.append(
            Figure(
                key: "target_micro_thresholds",
                name: "micro-benchmarks: allocation counts at their thresholds",
                value: micro.map { $0.met ? 1 : 0 },
                unit: "",
                display: micro.map { $0.met ? "\($0.checked) at their thresholds" : "off (status \($0.status))" }
                    ?? "not measured (--only micro)",
                target: "= thresholds",
                met: micro?.met
            )
        )
        return rows
    }
}
