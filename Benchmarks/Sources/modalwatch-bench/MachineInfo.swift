import Foundation
import Glibc
import ZeroMQ

/// What the figures were measured on.
enum MachineInfo {
    /// CPU model, cores, memory, kernel, libzmq: one line each.
    static func describe() -> [(String, String)] {
        var lines: [(String, String)] = []
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            ?? "unknown"
        lines.append(("cpu", "\(model), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) online cores"))
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        if let total = meminfo.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal:") }) {
            let kib = Int(total.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
            lines.append(("memory", Figure.format(Double(kib) / 1_048_576, 1) + " GiB"))
        }
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        lines.append(("kernel", "Linux \(release)"))
        lines.append(("libzmq", "\(ZMQ.version)"))
        return lines
    }

    /// The first line of `swift --version`: the toolchain on `PATH`, which built the bench and the
    /// daemon when both were built as docs/PERFORMANCE.md says.
    static func toolchain() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown (no swift on PATH)" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
        return line.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }

    /// The 1-, 5- and 15-minute load averages, as /proc/loadavg has them.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
