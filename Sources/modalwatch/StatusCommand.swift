import ArgumentParser
import Foundation

/// `modalwatch status`: the daemon's version, uptime, modules and counters.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the daemon's state and counters.")

    @OptionGroup var options: ControlOptions

    func run() throws {
        let client = ControlClient(endpoint: options.control, timeoutMs: options.timeout)
        if options.json {
            let raw = try client.requestRaw(["cmd": "status"])
            FileHandle.standardOutput.write(Data(raw + [0x0A]))
            if let reply = try? JSONSerialization.jsonObject(with: Data(raw)) as? [String: Any], reply["ok"] as? Bool != true {
                throw ExitCode(1)
            }
            return
        }
        let s = try client.request(["cmd": "status"])
        func n(_ key: String) -> String { "\(s[key] ?? "-")" }
        let modules = (s["modules"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "?") \($0["version"] ?? "")" }
        let rejected = (s["rejected_by_reason"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let uptime = (s["uptime_s"] as? Double).map { Self.duration($0) } ?? "-"
        let rows: [(String, String)] = [
            ("version", n("version")),
            ("uptime", uptime),
            ("edition", n("edition")),
            ("modules", modules.isEmpty ? "none loaded" : modules.joined(separator: ", ")),
            ("events in", "\(n("events_received")) (\(String(format: "%.1f", s["events_per_second"] as? Double ?? 0))/s)"),
            ("rejected", n("events_rejected") + (rejected.isEmpty ? "" : " (\(rejected.joined(separator: ", ")))")),
            ("sessions live", n("sessions_live")),
            ("violations out", n("violations_published")),
            ("dropped", n("messages_dropped")),
        ]
        for failure in s["module_failures"] as? [String] ?? [] { Terminal.error("module failed: \(failure)") }
        let width = rows.map(\.0.count).max() ?? 0
        for (key, value) in rows { print(key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value) }
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds)
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }
}
