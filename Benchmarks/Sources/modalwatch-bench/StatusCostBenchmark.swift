import Foundation

/// `status`: the daemon's CPU per `status` request (`bench/status_cost.py`: needs python3 with
/// pyzmq), the median of its rounds.
enum StatusCostBenchmark: Measurement {
    static let name = "status"

    static func measure(in run: BenchRun) throws {
        let requests = run.options.quick ? 1_000 : 5_000
        let rounds = run.options.quick ? 1 : 3
        ModalwatchBench.say("status: \(rounds) rounds of \(requests) status requests (bench/status_cost.py)")
        let command = HelperCommand(
            arguments: [
                "python3", "bench/status_cost.py", "--bin", run.binaries,
                "--requests", "\(requests)", "--rounds", "\(rounds)",
            ],
            directory: try run.repositoryRoot()
        )
        let output = try command.run(registry: run.registry, log: run.folder + "/status-cost.log")
        // "median: daemon CPU 0.123 ms per status request"
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("median:") }),
            let ms = line.split(separator: " ").compactMap({ Double($0) }).first
        else {
            throw BenchError("bench/status_cost.py printed no median (see \(run.folder)/status-cost.log)")
        }
        run.table.add(
            Figure(
                key: "status_cpu_us_per_request",
                name: "status: daemon CPU per request (median of \(rounds) rounds of \(requests))",
                value: ms * 1000,
                unit: "µs",
                display: Figure.format(ms * 1000, 0) + " µs"
            )
        )
        run.table.details.append(
            ("status", output.split(separator: "\n").enumerated().map { ("line_\($0.offset + 1)", String($0.element)) })
        )
    }
}
