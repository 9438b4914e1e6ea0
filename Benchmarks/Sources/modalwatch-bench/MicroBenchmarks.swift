import Foundation

/// `micro`: the package-benchmark micro-benchmarks (decoder, engine, history store) run against
/// their toolchain's thresholds, `Benchmarks/thresholds.sh check` (a release build of the
/// benchmarks the first time): met when every allocation count is at its threshold.
enum MicroBenchmarks: Measurement {
    static let name = "micro"

    /// The check's verdict.
    struct Result {
        /// Whether every count is at its threshold.
        var met: Bool
        /// The exit status of `Benchmarks/thresholds.sh check`.
        var status: Int32
        /// The benchmarks checked (one file each in `Benchmarks/Thresholds/<toolchain>`).
        var checked: Int
        /// The check's last lines, when it failed.
        var report: String
    }

    static func measure(in run: BenchRun) throws {
        let root = try run.repositoryRoot()
        ModalwatchBench.say("micro: bash Benchmarks/thresholds.sh check")
        var folderCommand = HelperCommand(
            arguments: ["bash", "thresholds.sh", "folder"],
            directory: root + "/Benchmarks"
        )
        folderCommand.successes = [0]
        let folder = try folderCommand.runToEnd(registry: run.registry, log: run.folder + "/micro-folder.log").output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let thresholds = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Benchmarks/" + folder)) ?? []
        var command = HelperCommand(arguments: ["bash", "thresholds.sh", "check"], directory: root + "/Benchmarks")
        command.successes = [0]
        let (output, status) = try command.runToEnd(registry: run.registry, log: run.folder + "/micro.log")
        let checked = thresholds.filter { $0.hasPrefix("ModalwatchMicro.") && $0.hasSuffix(".json") }.count
        let lines = output.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
        let log = (try? String(contentsOfFile: run.folder + "/micro.log", encoding: .utf8)) ?? ""
        let tail = status == 0 ? Array(lines.suffix(3)) : Array(lines.suffix(12)) + log.split(separator: "\n").suffix(4)
        let result = Result(
            met: status == 0 && checked > 0,
            status: status,
            checked: checked,
            report: tail.joined(separator: "\n")
        )
        run.micro = result
        // `swift package` ends a failed plugin with status 1 whatever the cause: the check's own words say which.
        let display: String
        if status == 0 && checked == 0 {
            display = "no thresholds for this toolchain in Benchmarks/\(folder): not checked"
        } else if status == 0 {
            display = "\(checked) benchmarks at their thresholds"
        } else if output.contains("WORSE than the defined thresholds") {
            display = "a count above its threshold: a regression (see details)"
        } else if output.contains("BETTER than the defined thresholds") {
            display = "a count below its threshold: update the thresholds (see details)"
        } else {
            display = "the check did not run to its end, status \(status) (see details)"
        }
        run.table.add(
            Figure(
                key: "micro_thresholds_met",
                name: "micro-benchmarks: allocation counts (Benchmarks/Thresholds)",
                value: result.met ? 1 : 0,
                unit: "",
                display: display,
                target: "= thresholds",
                met: result.met
            )
        )
        run.table.details.append(
            ("micro", [("status", "\(status)"), ("checked", "\(checked)"), ("output", result.report)])
        )
    }
}
