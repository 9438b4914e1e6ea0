import Foundation

/// The figures of the measurements made with other tools or outside the daemon: the engine's
/// cost per unit of work (callgrind), the history store on its own, and the control socket's
/// hold on the ingest thread; each as table rows, and as rows of the targets table.
extension ModalwatchBench {
    /// Thousands separators: 13970 → "13,970".
    private static func grouped(_ value: Double) -> String {
        var digits = String(Int(value.rounded()))
        var out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return digits + out
    }

    static func addCost(_ cost: EngineCostBenchmark.Result, to table: inout ResultTable) {
        let clean = cost.perCleanEvent, violation = cost.perViolation
        func row(_ key: String, _ name: String, _ counts: [String: Double], _ field: String, decimals: Int) {
            guard let value = counts[field] else { return }
            table.add(Figure(key: key, name: name, value: value, unit: field == "total" ? "instructions" : "calls",
                             display: decimals == 0 ? grouped(value) : Figure.format(value, decimals)))
        }
        row("cost_clean_event_instructions", "callgrind: instructions per clean event", clean, "total", decimals: 0)
        row("cost_violation_instructions", "callgrind: instructions per violation, more", violation, "total", decimals: 0)
        if let stress = cost.perStressEvent["total"] {
            table.add(Figure(key: "cost_stress_event_instructions", name: "↳ per stress event", value: stress, unit: "instructions",
                             display: grouped(stress)))
        }
        let perEvent = ["malloc", "swift_retain", "swift_release"].compactMap { field in clean[field].map { "\(field) \(Figure.format($0, 2))" } }
        table.add(Figure(key: "cost_clean_event_malloc", name: "callgrind: per clean event, malloc / retain / release", value: clean["malloc"],
                         unit: "calls", display: perEvent.joined(separator: ", ")))
    }

    static func addStore(_ store: StoreBenchmark.Result, to table: inout ResultTable) {
        for commits in store.commits {
            let size = commits.groupSize
            table.add(Figure(key: "store_\(size)_cpu_ns_per_violation", name: "store, commits of \(size): CPU per violation; violations/s",
                             value: commits.cpuMicrosecondsPerViolation * 1000, unit: "ns",
                             display: "\(Figure.format(commits.cpuMicrosecondsPerViolation, 2)) µs; \(Figure.rate(commits.violationsPerSecond, unit: "violations/s"))"))
            table.add(Figure(key: "store_\(size)_wal_pages_per_violation", name: "↳ WAL pages per violation (bytes)",
                             value: commits.walPagesPerViolation, unit: "pages",
                             display: "\(Figure.format(commits.walPagesPerViolation, 3)) (\(Figure.format(commits.walBytesPerViolation, 0)) B), \(commits.violations) violations"))
        }
        for query in store.queries {
            table.add(Figure(key: "store_query_" + query.name.filter { $0.isLetter || $0.isNumber || $0 == " " }.replacingOccurrences(of: " ", with: "_") + "_ms",
                             name: "query on \(store.historyRows) rows: \(query.name)", value: query.milliseconds, unit: "ms",
                             display: "\(Figure.format(query.milliseconds, 2)) ms (\(query.rows) rows)"))
        }
    }

    static func addControl(_ control: ControlHoldBenchmark.Result, live: Int, to table: inout ResultTable) {
        table.add(Figure(key: "control_hold_cpu_max_us", name: "control: longest hold of the ingest thread, CPU (\(live) live sessions)",
                         value: control.longestCPUMicroseconds, unit: "µs",
                         display: "\(Figure.format(control.longestCPUMicroseconds, 0)) µs (\(control.longestRequest)); wall \(Figure.format(control.longestWallMicroseconds, 0)) µs"))
        table.add(Figure(key: "control_events_lost", name: "↳ events lost meanwhile", value: Double(control.streamEvents - control.eventsReceived),
                         unit: "events", display: "\(control.streamEvents - control.eventsReceived) of \(control.streamEvents)"))
    }

    /// The targets measured by `cost`, `store` and `control`.
    static func targetRows(cost: EngineCostBenchmark.Result?, store: StoreBenchmark.Result?, control: ControlHoldBenchmark.Result?) -> [Figure] {
        var rows: [Figure] = []
        func add(_ key: String, _ name: String, _ target: String, _ value: Double?, _ display: (Double) -> String, _ met: (Double) -> Bool, missing: String) {
            rows.append(Figure(key: key, name: name, value: value, unit: "", display: value.map(display) ?? "not measured (\(missing))",
                               target: target, met: value.map(met)))
        }
        add("target_clean_event_instructions", "instructions per clean event (callgrind)", "≤ 1,500", cost?.perCleanEvent["total"],
            { grouped($0) }, { $0 <= 1500 }, missing: "--only cost")
        add("target_violation_instructions", "instructions per violation, more (callgrind)", "≤ 4,000", cost?.perViolation["total"],
            { grouped($0) }, { $0 <= 4000 }, missing: "--only cost")
        // malloc / retain / release per clean event; the target is met when the largest is (about) none.
        let calls = ["malloc", "swift_retain", "swift_release"].map { cost?.perCleanEvent[$0] ?? 0 }
        add("target_event_allocations", "heap allocations, retain/release per clean event", "none", cost.map { _ in calls.max() ?? 0 },
            { _ in calls.map { Figure.format($0, 2) }.joined(separator: " / ") }, { $0 < 0.01 }, missing: "--only cost")
        let big = store?.commits.max { $0.groupSize < $1.groupSize }
        let label = big.map { "commits of \($0.groupSize)" } ?? "commits"
        add("target_store_cpu", "store: CPU per stored violation (\(label))", "≤ 2 µs", big?.cpuMicrosecondsPerViolation,
            { Figure.format($0, 2) + " µs" }, { $0 <= 2 }, missing: "--only store")
        add("target_store_wal", "store: WAL pages per stored violation (\(label))", "≤ 0.5", big?.walPagesPerViolation,
            { Figure.format($0, 3) }, { $0 <= 0.5 }, missing: "--only store")
        add("target_store_rate", "store: violations stored per second (\(label))", "≥ 300 k/s", big?.violationsPerSecond,
            { Figure.rate($0, unit: "/s") }, { $0 >= 300_000 }, missing: "--only store")
        let large = store?.commits.filter { $0.groupSize >= 100 }.max { $0.walPagesPerViolation < $1.walPagesPerViolation }
        add("target_store_wal_any", "store: WAL pages per stored violation, worst commit size ≥ 100 (\(large.map { "commits of \($0.groupSize)" } ?? "none"))",
            "≤ 0.5", large?.walPagesPerViolation, { Figure.format($0, 3) }, { $0 <= 0.5 }, missing: "--only store with a --store-groups size ≥ 100")
        let slowest = store?.queries.max { $0.milliseconds < $1.milliseconds }
        add("target_store_queries", "store: slowest query on \(store?.historyRows ?? 0) stored violations (\(slowest?.name ?? "none"))", "≤ 5 ms",
            slowest?.milliseconds, { Figure.format($0, 2) + " ms" }, { $0 <= 5 }, missing: "--only store")
        for query in store?.queries ?? [] {
            add("target_store_query_" + query.name.filter { $0.isLetter || $0.isNumber || $0 == " " }.replacingOccurrences(of: " ", with: "_"),
                "↳ query: \(query.name)", "≤ 5 ms", query.milliseconds, { Figure.format($0, 2) + " ms (\(query.rows) rows)" }, { $0 <= 5 },
                missing: "--only store")
        }
        add("target_control_hold", "control request's longest hold on the ingest thread (CPU)", "≤ 1 ms", control?.longestCPUMicroseconds,
            { Figure.format($0, 0) + " µs" }, { $0 <= 1000 }, missing: "--only control")
        return rows
    }
}
