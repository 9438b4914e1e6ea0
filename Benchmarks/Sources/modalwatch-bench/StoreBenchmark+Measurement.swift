import Foundation

/// `store`: the daemon's history writer alone (CPU, rate and WAL pages per violation at commits of
/// `--store-groups`) and its queries on `--store-query-rows` stored violations.
extension StoreBenchmark: Measurement {
    static let name = "store"

    static func measure(in run: BenchRun) throws {
        let sizes = try run.options.storeGroupSizes()
        ModalwatchBench.say(
            "store: the stress stream's violations into a fresh history, commits of \(sizes.map(String.init).joined(separator: ", "))"
        )
        let cli = URL(fileURLWithPath: run.binaries).appendingPathComponent("modalwatch").path
        var benchmark = StoreBenchmark(cli: cli, stream: run.measured.ndjson(), folder: run.folder, groupSizes: sizes)
        benchmark.queryRows = run.options.storeQueryRows
        benchmark.violationsFile = run.options.storeViolations
        let store = try benchmark.run(registry: run.registry)
        run.store = store
        for commits in store.commits {
            let size = commits.groupSize
            run.table.add(
                Figure(
                    key: "store_\(size)_cpu_ns_per_violation",
                    name: "store, commits of \(size): CPU per violation; violations/s",
                    value: commits.cpuMicrosecondsPerViolation * 1000,
                    unit: "ns",
                    display:
                        "\(Figure.format(commits.cpuMicrosecondsPerViolation, 2)) µs; \(Figure.rate(commits.violationsPerSecond, unit: "violations/s"))"
                )
            )
            run.table.add(
                Figure(
                    key: "store_\(size)_wal_pages_per_violation",
                    name: "↳ WAL pages per violation (bytes)",
                    value: commits.walPagesPerViolation,
                    unit: "pages",
                    display:
                        "\(Figure.format(commits.walPagesPerViolation, 3)) (\(Figure.format(commits.walBytesPerViolation, 0)) B), \(commits.violations) violations"
                )
            )
        }
        for query in store.queries {
            run.table.add(
                Figure(
                    key: "store_query_" + query.key + "_ms",
                    name: "query on \(store.historyRows) rows: \(query.name)",
                    value: query.milliseconds,
                    unit: "ms",
                    display: "\(Figure.format(query.milliseconds, 2)) ms (\(query.rows) rows)"
                )
            )
        }
        if let retention = store.retention {
            run.table.add(
                Figure(
                    key: "store_retention_longest_slice_ms",
                    name: "retention on \(store.historyRows) rows to half: the longest slice (median)",
                    value: retention.longestMilliseconds,
                    unit: "ms",
                    display:
                        "\(Figure.format(retention.longestMilliseconds, 2)) ms (\(Figure.format(retention.medianMilliseconds, 2)) ms; \(retention.slices) slices, \(retention.deleted) rows deleted)"
                )
            )
        }
    }
}
