import ArgumentParser
import ControlProtocol
import Foundation
import Glibc

/// `modalwatch sessions`: the live sessions, as a table.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract:
            "List live sessions: app, device, age, alerts in the last window, modal depth, max depth, violations.",
        discussion: "Exit status: 0 answered, 3 daemon unreachable within --timeout."
    )

    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case alerts, depth, violations, recent, events
    }

    @OptionGroup var options: ControlOptions

    @Option(name: .long, help: "Only sessions of this app (bundle id).")
    var app: String?

    @Option(
        name: .long,
        help:
            "Order: alerts (in the last window), depth (modal depth now), violations, events, or recent (most recently active first)."
    )
    var sort: Sort = .recent

    @Option(
        name: .long,
        parsing: .unconditional,
        help: "At most this many sessions (0 to \(SessionsRequest.maximumLimit))."
    )
    var limit: Int = 50

    func validate() throws {
        if limit < 0 || limit > SessionsRequest.maximumLimit {
            throw ValidationError("--limit must be an integer from 0 to \(SessionsRequest.maximumLimit), not \(limit)")
        }
    }

    func run() throws {
        let request = SessionsRequest(
            app: app,
            sort: SessionsRequest.Sort(rawValue: sort.rawValue) ?? .recent,
            limit: limit
        )
        let fleet = options.fleet
        let replies = try fleet.each { client throws(ControlClient.Failure) in
            try Self.collect(client, request, limit: limit)
        }
        let reply = replies.count == 1 ? replies[0] : FleetMerging.sessions(replies, sort: request.sort, limit: limit)
        if options.json {
            var object = reply.fields
            object["ok"] = .bool(true)
            object["v"] = .int(ModalwatchVersion.controlProtocol)
            JSONOutput.line(object)
            return
        }
        if reply.sessions.isEmpty {
            Terminal.print(app.map { "no live sessions of \($0)" } ?? "no live sessions")
            return
        }
        for line in Self.table(reply.sessions, now: Double(reply.now)).lines(
            width: Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size()?.columns : nil
        ) {
            Terminal.print(line)
        }
        if reply.total > reply.sessions.count {
            Terminal.print("\(reply.sessions.count) of \(reply.total) live sessions; --limit shows more")
        }
    }

    /// One daemon's sessions for `first`, following its pages (at most 256 KiB a reply, `next`
    /// sent back as `cursor`) up to `limit`. A session met again on a later page (its key went
    /// down between pages: `depth`, `alerts`) is kept once, where it was first met.
    static func collect(
        _ client: ControlClient,
        _ first: SessionsRequest,
        limit: Int
    ) throws(ControlClient.Failure) -> SessionsReply {
        var request = first
        var reply = try client.send(request)
        var seen = Set(reply.sessions.map(\.id))
        while let next = reply.next, reply.sessions.count < limit {
            request.cursor = next
            request.limit = limit - reply.sessions.count
            let page = try client.send(request)
            let fresh = page.sessions.filter { seen.insert($0.id).inserted }
            reply.sessions += fresh
            reply.total = page.total
            reply.now = page.now
            reply.next = page.next
            if page.sessions.isEmpty { break }
        }
        if reply.sessions.count > limit { reply.sessions.removeSubrange(limit...) }
        return reply
    }

    /// The sessions table.
    static func table(_ sessions: [SessionInfo], now: Double) -> TextTable {
        let window = sessions.compactMap(\.windowMs).first.map(Double.init) ?? 600_000
        var table = TextTable(
            [
                "SESSION", "APP", "DEVICE", "AGE", "LAST EVENT", "ALERTS/\(RelativeTime.duration(ms: window))", "DEPTH",
                "MAX", "VIOLATIONS",
            ],
            rightAligned: [5, 6, 7, 8]
        )
        for s in sessions {
            let started = Double(s.startedTs ?? 0)
            let last = Double(s.lastTs ?? 0)
            table.add([
                s.id, s.app ?? "?", s.device ?? "?",
                RelativeTime.duration(ms: last - started),
                RelativeTime.ago(ms: now - (s.lastObserved.map(Double.init) ?? now)),
                s.alertsWindowText, "\(s.modalDepth ?? 0)", "\(s.maxDepth ?? 0)",
                s.violations > 0 ? Terminal.paint("\(s.violations)", "33") : "0",
            ])
        }
        return table
    }
}

extension SessionInfo {
    /// The alerts within the window as a column shows them: `≥N` when the daemon's journal does
    /// not hold every alert of the session's launch (a restored session, a wrapped journal).
    var alertsWindowText: String {
        (alertsWindowPartial == true ? "≥" : "") + "\(alertsWindow ?? 0)"
    }
}
