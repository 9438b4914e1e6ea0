import ArgumentParser
import ControlProtocol
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
            JSONOutput.raw(try client.askRaw(StatusRequest()))
            return
        }
        let s = try client.ask(StatusRequest())
        let modules = s.modules.map { "\($0.name) \($0.version)" }
        let rejected = s.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let rows: [(String, String)] = [
            ("version", s.version),
            ("uptime", RelativeTime.duration(ms: s.uptimeSeconds * 1000)),
            ("edition", s.edition),
            ("modules", modules.isEmpty ? "none loaded" : modules.joined(separator: ", ")),
            ("events in", "\(s.eventsReceived) (\(String(format: "%.1f", s.eventsPerSecond))/s)"),
            ("rejected", "\(s.eventsRejected)" + (rejected.isEmpty ? "" : " (\(rejected.joined(separator: ", ")))")),
            ("sessions live", "\(s.sessionsLive)"),
            ("violations out", "\(s.violationsPublished)"),
            ("dropped", "\(s.messagesDropped)"),
        ] + Self.moduleErrorsRow(s.moduleErrors)
        for failure in s.moduleFailures { Terminal.error("module failed: \(failure)") }
        let width = rows.map(\.0.count).max() ?? 0
        for (key, value) in rows { print(Terminal.paint(key.padding(toLength: width, withPad: " ", startingAt: 0), "1") + "  " + value) }
    }

    /// "module errors" with each module that reported any (ABI 1.2), or no row.
    private static func moduleErrorsRow(_ errors: [String: Int]) -> [(String, String)] {
        let reported = errors.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        return reported.isEmpty ? [] : [("module errors", reported.map { "\($0.key) \($0.value)" }.joined(separator: ", "))]
    }
}
