import Foundation

/// `postgres`: the PostgreSQL history (`bench/postgres_capacity.py`: PostgreSQL's server binaries
/// and python3 with pyzmq): violations stored per second by one daemon and by three sharded into
/// one server, next to SQLite, and the p99 sent → violation at a steady rate with each store.
enum PostgresBenchmark: Measurement {
    static let name = "postgres"
    static let isDefault = false

    static func measure(in run: BenchRun) throws {
        let events = run.options.postgresEvents ?? (run.options.quick ? 50_000 : 200_000)
        ModalwatchBench.say(
            "postgres: capacity on \(events) events and latency at 20 k events/s, SQLite and PostgreSQL (bench/postgres_capacity.py)"
        )
        let command = HelperCommand(
            arguments: ["python3", "bench/postgres_capacity.py", "--events", "\(events)", "--bin-dir", run.binaries],
            directory: try run.repositoryRoot()
        )
        let output = try command.run(registry: run.registry, log: run.folder + "/postgres.log")
        var rows = 0
        for line in output.split(separator: "\n") {
            let fields = Self.fields(line)
            guard let store = fields["store"] else { continue }
            if line.hasPrefix("latency"), let p99 = fields["p99_us"].flatMap(Double.init) {
                run.table.add(
                    Figure(
                        key: "postgres_latency_\(store)_p99_us",
                        name: "store \(store): p99 sent → violation at \(fields["rate"] ?? "?")",
                        value: p99,
                        unit: "µs",
                        display:
                            "\(Figure.format(p99, 0)) µs (p50 \(fields["p50_us"] ?? "?") µs; \(fields["received"] ?? "?")/\(fields["probes"] ?? "?") probes)"
                    )
                )
                rows += 1
            } else if let rate = fields["violations_per_s"].flatMap(Double.init), let daemons = fields["daemons"] {
                run.table.add(
                    Figure(
                        key: "postgres_capacity_\(store)_\(daemons)_violations_per_second",
                        name: "store \(store), \(daemons) daemon(s): violations stored per second",
                        value: rate,
                        unit: "violations/s",
                        display:
                            "\(Figure.rate(rate, unit: "/s")) (\(fields["daemon_cpu_us_per_violation"] ?? "?") µs daemon CPU each)"
                    )
                )
                rows += 1
            }
        }
        guard rows > 0 else {
            throw BenchError("bench/postgres_capacity.py printed no figures (see \(run.folder)/postgres.log)")
        }
        run.table.details.append(
            (
                "postgres",
                output.split(separator: "\n").enumerated().map { ("line_\($0.offset + 1)", String($0.element)) }
            )
        )
    }

    /// The `key=value` words of a line.
    private static func fields(_ line: Substring) -> [String: String] {
        var found: [String: String] = [:]
        for word in line.split(separator: " ") {
            guard let equals = word.firstIndex(of: "=") else { continue }
            found[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        return found
    }
}
