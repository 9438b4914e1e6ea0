import ArgumentParser
import ControlProtocol
import Foundation
import ShardRouting

/// `modalwatch status`: the daemon's version, uptime, modules and counters.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the daemon's state and counters.",
        discussion: """
            With several --control endpoints (sharded daemons), counters are summed and each daemon has its own line \
            (version, edition, uptime, shard, modules); a daemon that does not answer is named on stderr. \
            Each problem is a "warning:" line: a failing history (and its error), a rule in quarantine, a module \
            that failed to load, buckets owned by two daemons or by none, a daemon that did not answer. \
            Exit status: 0 answered, 3 no daemon reachable within --timeout; with --check, 1 when it answered \
            with a warning (the form for monitoring scripts).
            """
    )

    @OptionGroup var options: ControlOptions

    /// Exit 1 when there is a warning.
    @Flag(
        name: .long,
        help:
            "Exit 1 when any warning is printed (a failing history, a quarantined rule, a module not loaded, a shard problem)."
    )
    var check = false

    func run() throws {
        let fleet = options.fleet
        let answers = try fleet.ask(StatusRequest())
        let answered = Set(answers.map(\.endpoint))
        let unreachable = options.endpoints.filter { !answered.contains($0) }
        let coverage =
            fleet.isSingle
            ? answers[0].reply.reportedCoverage : StatusReply.coverage(answers.map { ($0.endpoint, $0.reply) })
        let warnings =
            StatusReply.merged(answers.map(\.reply)).warnings(coverage: coverage)
            + unreachable.map { "\($0) did not answer" }
        show(answers, fleet: fleet, unreachable: unreachable, warnings: warnings)
        if check && !warnings.isEmpty { throw ExitCode(1) }
    }

    /// Prints the reply, as JSON or as text with a `warning:` line for each of `warnings`.
    private func show(
        _ answers: [DaemonFleet.Answer<StatusReply>],
        fleet: DaemonFleet,
        unreachable: [String],
        warnings: [String]
    ) {
        if options.json {
            if fleet.isSingle {
                JSONOutput.reply(answers[0].bytes)
                return
            }
            var merged = StatusReply.merged(answers.map(\.reply))
            merged.note(StatusReply.coverage(answers.map { ($0.endpoint, $0.reply) }))
            var object = merged.fields
            object["ok"] = .bool(true)
            object["v"] = .int(ModalwatchVersion.controlProtocol)
            object["daemons"] = .array(
                answers.map { answer in
                    var fields = answer.reply.fields
                    fields["endpoint"] = .string(answer.endpoint)
                    return .object(fields)
                }
            )
            object["unreachable"] = .array(unreachable.map(JSONValue.string))
            JSONOutput.line(object)
            return
        }
        let s = StatusReply.merged(answers.map(\.reply))
        let modules = s.modules.map { "\($0.name) \($0.version)" }
        let rejected = s.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let rows: [(String, String)] =
            [
                ("version", s.version),
                ("uptime", RelativeTime.duration(ms: s.uptimeSeconds * 1000)),
                ("edition", s.edition),
                ("modules", modules.isEmpty ? "none loaded" : modules.joined(separator: ", ")),
                ("events in", "\(s[.eventsReceived]) (\(String(format: "%.1f", s.eventsPerSecond))/s)"),
                (
                    "rejected",
                    "\(s[.eventsRejected])" + (rejected.isEmpty ? "" : " (\(rejected.joined(separator: ", ")))")
                ),
                ("sessions live", "\(s[.sessionsLive])"),
                ("violations out", "\(s[.violationsPublished])"),
                ("dropped", "\(s[.messagesDropped])"),
                ("history", s.faults.historyState),
            ] + Self.moduleErrorsRow(s.moduleErrors)
            + Self.reloadsRow(done: s[.configReloads], refused: s[.configReloadsRefused])
        for change in s.moduleFilesChanged { Terminal.error("module file changed: \(change)") }
        let width = rows.map(\.0.count).max() ?? 0
        for (key, value) in rows {
            Terminal.print(
                Terminal.paint(key.padding(toLength: width, withPad: " ", startingAt: 0), "1") + "  " + value
            )
        }
        if !fleet.isSingle {
            Terminal.print(
                Terminal.paint("daemons".padding(toLength: width, withPad: " ", startingAt: 0), "1")
                    + "  \(answers.count) of \(options.endpoints.count) answered, \(s.shardBuckets) of 256 buckets owned"
            )
            for answer in answers { Terminal.print("  " + answer.reply.daemonLine(endpoint: answer.endpoint)) }
        }
        for warning in warnings { Terminal.print(Terminal.paint("warning", "31") + ": " + warning) }
    }

    /// "reloads" with those done and refused, or no row before the first.
    private static func reloadsRow(done: Int, refused: Int) -> [(String, String)] {
        done + refused == 0 ? [] : [("reloads", "\(done) done, \(refused) refused")]
    }

    /// "module errors" with each module that reported any (ABI 1.2), or no row.
    private static func moduleErrorsRow(_ errors: [String: Int]) -> [(String, String)] {
        let reported = errors.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        return reported.isEmpty
            ? [] : [("module errors", reported.map { "\($0.key) \($0.value)" }.joined(separator: ", "))]
    }
}
