import ArgumentParser
import ControlProtocol
import Foundation
import ShardRouting

/// `modalwatch status`: the daemon's version, uptime, modules and counters.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the daemon's state and counters.",
        discussion: """
            With several --control endpoints (sharded daemons), counters are summed and each daemon has its own line \
            (version, edition, uptime, shard, modules); a daemon that does not answer is named on stderr. \
            Exit status: 0 answered, 3 no daemon reachable within --timeout.
            """)

    @OptionGroup var options: ControlOptions

    func run() throws {
        let fleet = options.fleet
        let answers = try fleet.ask(StatusRequest())
        if options.json {
            if fleet.isSingle { JSONOutput.reply(answers[0].bytes); return }
            var merged = StatusReply.merged(answers.map(\.reply))
            merged.note(StatusReply.coverage(answers.map { ($0.endpoint, $0.reply) }))
            var object = merged.fields
            object["ok"] = .bool(true)
            object["v"] = .int(ModalwatchVersion.controlProtocol)
            object["daemons"] = .array(answers.map { answer in
                var fields = answer.reply.fields
                fields["endpoint"] = .string(answer.endpoint)
                return .object(fields)
            })
            let answered = Set(answers.map(\.endpoint))
            object["unreachable"] = .array(options.endpoints.filter { !answered.contains($0) }.map(JSONValue.string))
            JSONOutput.line(object)
            return
        }
        let s = StatusReply.merged(answers.map(\.reply))
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
        for change in s.moduleFilesChanged { Terminal.error("module file changed: \(change)") }
        let width = rows.map(\.0.count).max() ?? 0
        for (key, value) in rows { Terminal.print(Terminal.paint(key.padding(toLength: width, withPad: " ", startingAt: 0), "1") + "  " + value) }
        if fleet.isSingle {
            for warning in answers[0].reply.reportedCoverage?.warnings ?? [] { Terminal.print(Terminal.paint("warning", "31") + ": " + warning) }
        } else {
            Terminal.print(Terminal.paint("daemons".padding(toLength: width, withPad: " ", startingAt: 0), "1") + "  \(answers.count) of \(options.endpoints.count) answered, \(s.shardBuckets) of 256 buckets owned")
            for answer in answers { Terminal.print("  " + answer.reply.daemonLine(endpoint: answer.endpoint)) }
            for warning in StatusReply.coverage(answers.map { ($0.endpoint, $0.reply) })?.warnings ?? [] {
                Terminal.print(Terminal.paint("warning", "31") + ": " + warning)
            }
        }
    }

    /// "module errors" with each module that reported any (ABI 1.2), or no row.
    private static func moduleErrorsRow(_ errors: [String: Int]) -> [(String, String)] {
        let reported = errors.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        return reported.isEmpty ? [] : [("module errors", reported.map { "\($0.key) \($0.value)" }.joined(separator: ", "))]
    }
}
