import ArgumentParser
import ControlProtocol
import Foundation
import Glibc
import HistoryStore
import ModalwatchConfig
import PostgresHistory

/// `modalwatch violations`: the violation history, newest first.
struct ViolationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "violations",
        abstract: "Show the violation history from the daemon's store, newest first.",
        discussion:
            "Asks the running daemon through --control; with --state-dir, reads the store file directly, and with --postgresql the history every daemon shares in PostgreSQL (no daemon needed)."
    )

    @OptionGroup var options: ControlOptions

    @Option(name: .long, help: "Only this app (bundle id).")
    var app: String?

    @Option(name: .long, help: "Only this rule id.")
    var rule: String?

    @Option(name: .long, help: "Only this session id.")
    var session: String?

    @Option(
        name: .long,
        help:
            "Only violations in this language: a BCP 47 tag (de-DE) and the tags that extend it (de: de, de-DE, de-AT)."
    )
    var locale: String?

    @Option(name: .long, help: "Only violations found within this long, e.g. 15m, 2h, 7d.")
    var since: String?

    @Option(
        name: .long,
        parsing: .unconditional,
        help: "At most this many, 1 to 10000 (default 50); a last line says how many more match."
    )
    var limit: Int = 50

    @Option(
        name: .customLong("state-dir"),
        help: "Read the history file in this folder directly instead of asking the daemon."
    )
    var stateDir: String?

    @Option(
        name: .customLong("postgresql"),
        help: "Read the shared history in this PostgreSQL database (a libpq connection string or URI) directly."
    )
    var postgresql: String?

    func validate() throws {
        if stateDir != nil && postgresql != nil {
            throw ValidationError("give --state-dir or --postgresql, not both")
        }
        if let locale, LocaleOption.normalized(locale) == nil {
            throw ValidationError(LocaleOption.badTag)
        }
        if let since, DurationParser.milliseconds(since) == nil {
            throw ValidationError("--since must be a duration such as 15m, 2h or 7d")
        }
        if limit < 1 || limit > Self.maximumLimit {
            throw ValidationError("--limit must be a positive integer, at most \(Self.maximumLimit), not \(limit)")
        }
    }

    /// The largest `--limit`: the largest a `violations` request takes.
    static let maximumLimit = ViolationsRequest.maximumLimit

    /// Rows looked for past `--limit` to say how many more match (text output only).
    static let lookahead = 1000

    func run() throws {
        // Text output counts the matches past --limit (up to `lookahead`) for its last line.
        let wanted = limit + (options.json ? 0 : Self.lookahead)
        var objects: [JSONValue]
        let locale = locale.flatMap(LocaleOption.normalized)
        if let postgresql {
            let sinceObserved = since.flatMap(DurationParser.milliseconds).map {
                Int64(Date().timeIntervalSince1970 * 1000) - $0
            }
            let history = try HistoryAccess.postgresql(postgresql, writer: false)
            do {
                let rows = try history.find(
                    HistoryQuery(
                        app: app,
                        rule: rule,
                        session: session,
                        locale: locale,
                        sinceObserved: sinceObserved,
                        limit: wanted
                    )
                )
                objects = rows.compactMap { row in
                    guard let value = try? JSONParser.parse(Array(row.json.utf8)), value.objectValue != nil else {
                        return nil
                    }
                    return value
                }
            } catch {
                Terminal.error(
                    "cannot read the history in PostgreSQL (\(PostgresConninfo.redacted(postgresql))): \(error); \(HistoryAccess.hint(for: error))"
                )
                throw ExitCode(2)
            }
        } else if let stateDir {
            let path = HistoryAccess.path(inStateDirectory: stateDir)
            let sinceObserved = since.flatMap(DurationParser.milliseconds).map {
                Int64(Date().timeIntervalSince1970 * 1000) - $0
            }
            let history = try HistoryAccess.stateDirectory(stateDir)
            do {
                let rows = try history.find(
                    HistoryQuery(
                        app: app,
                        rule: rule,
                        session: session,
                        locale: locale,
                        sinceObserved: sinceObserved,
                        limit: wanted
                    )
                )
                objects = rows.compactMap { row in
                    guard let value = try? JSONParser.parse(Array(row.json.utf8)), value.objectValue != nil else {
                        return nil
                    }
                    return value
                }
            } catch {
                Terminal.error("cannot read the history at \(path): \(error)")
                throw ExitCode(2)
            }
        } else {
            let request = ViolationsRequest(
                app: app,
                rule: rule,
                session: session,
                locale: locale,
                since: since.map { .duration($0) },
                limit: min(wanted, ViolationsRequest.maximumLimit)
            )
            let fleet = options.fleet
            let lists = try fleet.each { client throws(ControlClient.Failure) in
                try Self.collect(client, request, limit: wanted)
            }
            objects = lists.count == 1 ? lists[0] : FleetMerging.violations(lists, limit: wanted)
            if let rule, objects.isEmpty, let known = fleet.clients.lazy.compactMap(RuleIdCheck.daemonRules).first {
                try RuleIdCheck.require(rule, known: known)
            }
        }
        if let rule, objects.isEmpty, stateDir != nil || postgresql != nil {
            try RuleIdCheck.require(rule, known: RuleIdCheck.loadedRules())
        }
        let more = max(0, objects.count - limit)
        objects = Array(objects.prefix(limit))
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
                Self.text(object["session"], "?"), object["subject"]?.stringValue ?? "-",
                Self.text(object["message"], ""),
            ])
        }
        if objects.isEmpty {
            FileHandle.standardError.write(Data("no violations match\n".utf8))
        } else {
            for line in table.lines(width: Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size()?.columns : nil) {
                Terminal.print(line)
            }
            if more > 0 { Terminal.print(Self.moreLine(shown: objects.count, more: more)) }
        }
    }

    /// The last line when more match than are shown: how many, and how to see them.
    static func moreLine(shown: Int, more: Int) -> String {
        if more >= lookahead {
            return
                "\(shown) shown; over \(lookahead) more match: narrow with --since, --app, --rule, --session or --locale, or raise --limit (at most \(maximumLimit))"
        }
        let all = shown + more
        return "\(shown) shown; \(more) more match: --limit \(all) shows them all"
            + (all > maximumLimit ? " (or narrow with --since, --app, --rule, --session or --locale)" : "")
    }

    /// Every violation one daemon has for `first`, following its pages (at most 256 KiB a
    /// reply, `next`) up to `limit`.
    private static func collect(
        _ client: ControlClient,
        _ first: ViolationsRequest,
        limit: Int
    ) throws(ControlClient.Failure) -> [JSONValue] {
        var request = first
        var collected: [JSONValue] = []
        while true {
            let reply = try client.send(request)
            collected += reply.violations
            guard let next = reply.next, !reply.violations.isEmpty, collected.count < limit else { break }
            request.cursor = next
            request.limit = min(limit - collected.count, ViolationsRequest.maximumLimit)
        }
        return collected
    }

    /// A field for the table: a string as it is, any other value as JSON, `fallback` when absent.
    private static func text(_ value: JSONValue?, _ fallback: String) -> String {
        guard let value else { return fallback }
        return value.stringValue ?? value.text
    }
}
