import Foundation

/// `micro`: the package-benchmark micro-benchmarks (decoder, engine, history store) run against
/// their thresholds, `swift package benchmark thresholds check --target ModalwatchMicro` in
/// `Benchmarks/` (a release build of the benchmarks the first time): met when every allocation
/// count is at its threshold.
enum MicroBenchmarks: Measurement {
    static let name = "micro"

    /// The check's verdict.
    struct Result {
        /// Whether every count is at its threshold.
        var met: Bool
        /// The check's exit status (package-benchmark's: 2 a count above its threshold, 4 one below).
        var status: Int32
        /// The benchmarks checked (one file each in `Benchmarks/Thresholds`).
        var checked: Int
        /// The check's last lines, when it failed.
        var report: String
    }

    static func measure(in run: BenchRun) throws {
        let root = try run.repositoryRoot()
        ModalwatchBench.say("micro: swift package benchmark thresholds check --target ModalwatchMicro (in Benchmarks/)")
        var command = HelperCommand(arguments: ["swift", "package", "benchmark", "thresholds", "check", "--target", "ModalwatchMicro", "--no-progress"],
                                    directory: root + "/Benchmarks")
        command.successes = [0]
        let log = run.folder + "/micro.log"
        let (output, status) = try command.runToEnd(registry: run.registry, log: log)
        let thresholds = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Benchmarks/Thresholds")) ?? []
        let checked = thresholds.filter { $0.hasPrefix("ModalwatchMicro.") && $0.hasSuffix(".json") }.count
        let lines = output.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
        let result = Result(met: status == 0, status: status, checked: checked, report: lines.suffix(12).joined(separator: "\n"))
        run.micro = result
        let display: String
        switch status {
        case 0: display = "\(checked) benchmarks at their thresholds"
        case 2: display = "a count above its threshold (regression; see details)"
        case 4: display = "a count below its threshold (update the thresholds; see details)"
        default: display = "the check failed, status \(status) (see \(log))"
        }
        run.table.add(Figure(key: "micro_thresholds_met", name: "micro-benchmarks: allocation counts (Benchmarks/Thresholds)",
                             value: result.met ? 1 : 0, unit: "", display: display, target: "= thresholds", met: result.met))
        run.table.details.append(("micro", [("status", "\(status)"), ("checked", "\(checked)"), ("output", result.report)]))
    }
}
