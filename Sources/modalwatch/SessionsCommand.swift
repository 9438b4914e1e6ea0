import ArgumentParser
import Foundation
import Glibc

/// `modalwatch sessions`: the live sessions, as a table.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List live sessions: app, device, age, alerts in the last window, modal depth, max depth, violations.",
        discussion: "Exit status: 0 answered, 3 daemon unreachable within --timeout.")

    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case alerts, depth, violations, recent, events
    }

    @OptionGroup var options: ControlOptions

    @Option(name: .long, help: "Only sessions of this app (bundle id).")
    var app: String?

    @Option(name: .long, help: "Order: alerts (in the last window), depth (modal depth now), violations, events, or recent (most recently active first).")
    var sort: Sort = .recent

    @Option(name: .long, help: "At most this many sessions.")
    var limit: Int = 50

    func validate() throws {
        if limit < 0 || limit > 1_000_000 { throw ValidationError("--limit must be 0 to 1000000") }
    }

    func run() throws {
        var request: [String: Any] = ["cmd": "sessions", "sort": sort.rawValue, "limit": limit]
        if let app { request["app"] = app }
        let client = options.client
        if options.json {
            JSONOutput.raw(try client.requestRaw(request))
            return
        }
        let reply = try client.request(request)
        let sessions = reply["sessions"] as? [[String: Any]] ?? []
        let total = reply["total"] as? Int ?? sessions.count
        let now = RelativeTime.number(reply["now"]) ?? RelativeTime.nowMs
        if sessions.isEmpty {
            print(app.map { "no live sessions of \($0)" } ?? "no live sessions")
            return
        }
        for line in Self.table(sessions, now: now).lines(width: Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size()?.columns : nil) {
            print(line)
        }
        if total > sessions.count { print("\(sessions.count) of \(total) live sessions; --limit shows more") }
    }

    /// The sessions table (also drawn by `top`'s snapshot).
    static func table(_ sessions: [[String: Any]], now: Double) -> TextTable {
        let window = sessions.compactMap { RelativeTime.number($0["window_ms"]) }.first ?? 600_000
        var table = TextTable(
            ["SESSION", "APP", "DEVICE", "AGE", "LAST EVENT", "ALERTS/\(RelativeTime.duration(ms: window))", "DEPTH", "MAX", "VIOLATIONS"],
            rightAligned: [5, 6, 7, 8])
        for s in sessions {
            let started = RelativeTime.number(s["started_ts"]) ?? 0, last = RelativeTime.number(s["last_ts"]) ?? 0
            let violations = s["violations"] as? Int ?? 0
            table.add([
                "\(s["id"] ?? "?")", "\(s["app"] ?? "?")", "\(s["device"] ?? "?")",
                RelativeTime.duration(ms: last - started),
                RelativeTime.ago(ms: now - (RelativeTime.number(s["last_observed"]) ?? now)),
                "\(s["alerts_window"] ?? 0)", "\(s["modal_depth"] ?? 0)", "\(s["max_depth"] ?? 0)",
                violations > 0 ? Terminal.paint("\(violations)", "33") : "0",
            ])
        }
        return table
    }
}
