import ArgumentParser
import Foundation

/// `modalwatch status`: the daemon's version, uptime, modules and counters.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the daemon's state and counters.",
        discussion: "Exit status: 0 answered, 3 daemon unreachable within --timeout.")

    @OptionGroup var options: ControlOptions

    func run() throws {
        let client = options.client
        if options.json {
            JSONOutput.raw(try client.requestRaw(["cmd": "status"]))
            return
        }
        let s = try client.request(["cmd": "status"])
        func n(_ key: String) -> String { "\(s[key] ?? "-")" }
        let modules = (s["modules"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "?") \($0["version"] ?? "")" }
        let rejected = (s["rejected_by_reason"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let uptime = RelativeTime.number(s["uptime_s"]).map { RelativeTime.duration(ms: $0 * 1000) } ?? "-"
        let rows: [(String, String)] = [
            ("version", n("version")),
            ("uptime", uptime),
            ("edition", n("edition")),
            ("modules", modules.isEmpty ? "none loaded" : modules.joined(separator: ", ")),
            ("events in", "\(n("events_received")) (\(String(format: "%.1f", RelativeTime.number(s["events_per_second"]) ?? 0))/s)"),
            ("rejected", n("events_rejected") + (rejected.isEmpty ? "" : " (\(rejected.joined(separator: ", ")))")),
            ("sessions live", n("sessions_live")),
            ("violations out", n("violations_published")),
            ("dropped", n("messages_dropped")),
        ] + Self.moduleErrorsRow(s["module_errors"])
        for failure in s["module_failures"] as? [String] ?? [] { Terminal.error("module failed: \(failure)") }
        let width = rows.map(\.0.count).max() ?? 0
        for (key, value) in rows { print(Terminal.paint(key.padding(toLength: width, withPad: " ", startingAt: 0), "1") + "  " + value) }
    }

    /// "module errors" with each module that reported any (ABI 1.2), or no row.
    private static func moduleErrorsRow(_ value: Any?) -> [(String, String)] {
        let errors = (value as? [String: Any] ?? [:])
            .compactMap { name, count in (count as? NSNumber).map { (name, $0.intValue) } }
            .filter { $0.1 > 0 }.sorted { $0.0 < $1.0 }
        return errors.isEmpty ? [] : [("module errors", errors.map { "\($0.0) \($0.1)" }.joined(separator: ", "))]
    }
}
