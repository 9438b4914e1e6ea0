import ArgumentParser
import ControlProtocol
import Foundation
import Glibc
import HistoryStore
import ModalwatchConfig

/// `modalwatch violations`: the violation history, newest first.
struct ViolationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "violations",
        abstract: "Show the violation history from the daemon's store, newest first.",
        discussion: "Asks the running daemon through --control; with --state-dir, reads the store file directly (no daemon needed).")

    @OptionGroup var options: ControlOptions

    @Option(name: .long, help: "Only this app (bundle id).")
    var app: String?

    @Option(name: .long, help: "Only this rule id.")
    var rule: String?

    @Option(name: .long, help: "Only this session id.")
    var session: String?

    @Option(name: .long, help: "Only violations found within this long, e.g. 15m, 2h, 7d.")
    var since: String?

    @Option(name: .long, help: "At most this many.")
    var limit: Int = 50

    @Option(name: .customLong("state-dir"), help: "Read the history file in this folder directly instead of asking the daemon.")
    var stateDir: String?

    func validate() throws {
        if let since, DurationParser.milliseconds(since) == nil {
            throw ValidationError("--since must be a duration such as 15m, 2h or 7d")
        }
        if limit < 0 || limit > 10_000 { throw ValidationError("--limit must be 0 to 10000") }
    }

    func run() throws {
        let objects: [JSONValue]
        if let stateDir {
            let path = stateDir + "/" + ViolationHistory.fileName
            guard FileManager.default.fileExists(atPath: path) else {
                Terminal.error("no history at \(path); is --state-dir the daemon's state directory?")
                throw ExitCode(2)
            }
            let sinceObserved = since.flatMap(DurationParser.milliseconds).map { Int64(Date().timeIntervalSince1970 * 1000) - $0 }
            do {
                let history = try ViolationHistory(path: path, readOnly: true)
                let rows = try history.find(HistoryQuery(app: app, rule: rule, session: session, sinceObserved: sinceObserved, limit: limit))
                objects = rows.compactMap { row in
                    guard let value = try? JSONParser.parse(Array(row.json.utf8)), value.objectValue != nil else { return nil }
                    return value
                }
            } catch {
                Terminal.error("cannot read the history at \(path): \(error)")
                throw ExitCode(2)
            }
        } else {
            let request = ViolationsRequest(app: app, rule: rule, session: session, since: since.map { .duration($0) }, limit: limit)
            let lists = try options.fleet.each { client throws(ControlClient.Failure) in try Self.collect(client, request, limit: limit) }
            objects = lists.count == 1 ? lists[0] : FleetMerging.violations(lists, limit: limit)
        }
        if options.json {
            for object in objects { JSONOutput.line(object) }
            return
        }
        let now = RelativeTime.nowMs
        var table = TextTable(["FOUND", "SEVERITY", "RULE", "APP", "SESSION", "SUBJECT", "MESSAGE"])
        for object in objects {
            let severity = object["severity"]?.stringValue ?? "?"
            table.add([
                RelativeTime.ago(ms: now - (object["observed"]?.doubleValue ?? now)),
                Terminal.severity(severity, severity), Self.text(object["rule"], "?"), Self.text(object["app"], "?"),
                Self.text(object["session"], "?"), object["subject"]?.stringValue ?? "-", Self.text(object["message"], ""),
            ])
        }
        if objects.isEmpty {
            FileHandle.standardError.write(Data("no violations match\n".utf8))
        } else {
            for line in table.lines(width: Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size()?.columns : nil) { Terminal.print(line) }
        }
    }

    /// Every violation one daemon has for `first`, following its pages (at most 256 KiB a
    /// reply, `next`) up to `limit`.
    private static func collect(_ client: ControlClient, _ first: ViolationsRequest, limit: Int) throws(ControlClient.Failure) -> [JSONValue] {
        var request = first
        var collected: [JSONValue] = []
        while true {
            let reply = try client.send(request)
            collected += reply.violations
            guard let next = reply.next, !reply.violations.isEmpty, collected.count < limit else { break }
            request.cursor = next
            request.limit = limit - collected.count
        }
        return collected
    }

    /// A field for the table: a string as it is, any other value as JSON, `fallback` when absent.
    private static func text(_ value: JSONValue?, _ fallback: String) -> String {
        guard let value else { return fallback }
        return value.stringValue ?? value.text
    }
}
