import Foundation

/// The engine's cost per unit of work, exact and independent of the machine's load:
/// `bench/engine_cost.sh` runs `modalwatch check` (the same engine and modules as the daemon)
/// under callgrind on the clean and the stress streams, and counts instructions, malloc and
/// retain/release per clean event and per violation. Needs valgrind; a few minutes.
struct EngineCostBenchmark {
    /// The repository (for the script and the stream generator).
    let root: String
    /// The folder of the `modalwatch` and rule modules to measure (the daemon's folder).
    let binaries: String
    /// Where callgrind's files go.
    let folder: String
    /// Events in each stream (the first 20,000 are not counted: start-up and session starts).
    let events: Int

    /// Counts per unit of work: `total` (instructions), `malloc`, `free`, `swift_retain`, …
    struct Result {
        var perCleanEvent: [String: Double]
        var perStressEvent: [String: Double]
        var perViolation: [String: Double]
    }

    func run(registry: ChildRegistry) throws -> Result {
        guard HelperCommand.isInstalled("valgrind") else {
            throw BenchError("valgrind is not installed (apt-get install -y valgrind); the cost figures need callgrind")
        }
        guard events > 20_000 else { throw BenchError("the cost run needs more than 20,000 events, not \(events)") }
        let out = folder + "/cost"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let command = HelperCommand(
            arguments: ["bash", "bench/engine_cost.sh", out, "\(events)"],
            environment: ["BIN_DIR": binaries],
            directory: root
        )
        _ = try command.run(registry: registry, log: folder + "/cost.log")
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/summary.json"))
        guard let summary = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchError("\(out)/summary.json is not a JSON object")
        }
        func counts(_ key: String) throws -> [String: Double] {
            guard let object = summary[key] as? [String: Any] else {
                throw BenchError("\(out)/summary.json has no \(key)")
            }
            return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
        }
        return Result(
            perCleanEvent: try counts("per_clean_event"),
            perStressEvent: try counts("per_stress_event"),
            perViolation: try counts("per_violation")
        )
    }
}
