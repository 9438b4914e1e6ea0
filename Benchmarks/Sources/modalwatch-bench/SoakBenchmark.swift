import Foundation

/// `soak`: a real daemon under a steady load for `--soak-seconds` (`bench/soak.py`: needs python3
/// with pyzmq); RSS, descriptors and threads judged flat. The fault soak (`--faults`) needs root and
/// a tmpfs: run the script itself (docs/RELIABILITY.md).
enum SoakBenchmark: Measurement {
    static let name = "soak"
    static let isDefault = false

    static func measure(in run: BenchRun) throws {
        let seconds = run.options.soakSeconds ?? (run.options.quick ? 60 : 180)
        let warmup = min(30, seconds / 3)
        ModalwatchBench.say("soak: \(Figure.format(seconds, 0)) s of steady load (bench/soak.py)")
        let json = run.folder + "/soak.json"
        var command = HelperCommand(
            arguments: [
                "python3", "bench/soak.py", "--seconds", "\(seconds)", "--warmup", "\(warmup)", "--json", json,
            ],
            environment: ["MODALWATCH_BIN_DIR": run.binaries],
            directory: try run.repositoryRoot()
        )
        command.successes = [0, 1]  // 1: not flat, a verdict all the same
        _ = try command.run(registry: run.registry, log: run.folder + "/soak.log")
        guard let data = FileManager.default.contents(atPath: json),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let verdict = object["verdict"] as? [String: Any],
            let flat = verdict["flat"] as? Bool,
            let growth = (verdict["rss_growth"] as? NSNumber)?.doubleValue
        else {
            throw BenchError("bench/soak.py wrote no verdict (see \(run.folder)/soak.log)")
        }
        let fds = (verdict["fds"] as? [NSNumber])?.map(\.intValue) ?? []
        let threads = (verdict["threads"] as? [NSNumber])?.map(\.intValue) ?? []
        run.table.add(
            Figure(
                key: "soak_rss_growth",
                name: "soak, \(Figure.format(seconds, 0)) s: RSS growth after warm-up; descriptors, threads",
                value: growth,
                unit: "",
                display:
                    "\(Figure.format(growth * 100, 1)) %; fds \(fds.map(String.init).joined(separator: " → ")), threads \(threads.map(String.init).joined(separator: " → "))",
                target: "flat",
                met: flat
            )
        )
        run.table.details.append(("soak", verdict.keys.sorted().map { ($0, "\(verdict[$0]!)") }))
    }
}
