import ArgumentParser
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
        let objects: [[String: Any]]
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
                objects = rows.compactMap { try? JSONSerialization.jsonObject(with: Data($0.json.utf8)) as? [String: Any] }
            } catch {
                Terminal.error("cannot read the history at \(path): \(error)")
                throw ExitCode(2)
            }
        } else {
            var request: [String: Any] = ["cmd": "violations", "limit": limit]
            if let app { request["app"] = app }
            if let rule { request["rule"] = rule }
            if let session { request["session"] = session }
            if let since { request["since"] = since }
            let reply = try options.client.request(request)
            objects = reply["violations"] as? [[String: Any]] ?? []
        }
        if options.json {
            for object in objects {
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                FileHandle.standardOutput.write(data + Data([0x0A]))
            }
            return
        }
        let now = RelativeTime.nowMs
        var table = TextTable(["FOUND", "SEVERITY", "RULE", "APP", "SESSION", "SUBJECT", "MESSAGE"])
        for object in objects {
            let severity = object["severity"] as? String ?? "?"
            table.add([
                RelativeTime.ago(ms: now - (RelativeTime.number(object["observed"]) ?? now)),
                Terminal.severity(severity, severity), "\(object["rule"] ?? "?")", "\(object["app"] ?? "?")",
                "\(object["session"] ?? "?")", object["subject"] as? String ?? "-", "\(object["message"] ?? "")",
            ])
        }
        if objects.isEmpty {
            FileHandle.standardError.write(Data("no violations match\n".utf8))
        } else {
            for line in table.lines(width: Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size()?.columns : nil) { print(line) }
        }
    }
}
