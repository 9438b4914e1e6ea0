import ControlProtocol
import Foundation

/// What `top` draws: a header with the daemon's rates, then the busiest sessions.
struct TopScreen {
    let endpoint: String
    let intervalSeconds: Double

    /// The lines of one frame, at most `height` of at most `width` characters (unbounded when nil).
    func lines(_ sample: TopSample, width: Int?, height: Int?, problem: String?, interactive: Bool) -> [String] {
        let s = sample.status
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        let clock = formatter.string(from: Date(timeIntervalSince1970: sample.now / 1000))
        let uptime = RelativeTime.duration(ms: s.uptimeSeconds * 1000)
        var lines: [String] = []
        lines.append(Terminal.paint("modalwatch top", "1") + "  \(endpoint)  modalwatchd \(s.version), up \(uptime), edition \(s.edition)  \(clock)")
        let eventRate = String(format: "%.1f", s.eventsPerSecond)
        let violationRate = sample.violationsPerSecond.map { String(format: "%.1f/s", $0) } ?? "-/s"
        let rate = sample.violationsPerSecond ?? 0
        lines.append([
            "events \(s.eventsReceived) in, \(eventRate)/s",
            "rejected \(s.eventsRejected)",
            "sessions \(s.sessionsLive) live",
            (rate > 0 ? Terminal.paint("violations \(s.violationsPublished) out, \(violationRate)", "33")
                : "violations \(s.violationsPublished) out, \(violationRate)"),
            "dropped \(s.messagesDropped)",
        ].joined(separator: "   "))
        lines.append("")
        var table = TextTable(["SESSION", "APP", "EVENTS/S", "EVENTS", "ALERTS", "DEPTH", "MAX", "VIOLATIONS", "LAST EVENT"],
                              rightAligned: [2, 3, 4, 5, 6, 7])
        let room = height.map { max(0, $0 - lines.count - 2) } ?? sample.sessions.count
        for session in sample.sessions.prefix(room) {
            let violations = session.violations
            table.add([
                session.id, session.app ?? "?",
                sample.eventsPerSecond[session.id].map { String(format: "%.1f", $0) } ?? "-",
                "\(session.events)", "\(session.alertsWindow ?? 0)",
                "\(session.modalDepth ?? 0)", "\(session.maxDepth ?? 0)",
                violations > 0 ? Terminal.paint("\(violations)", "33") : "0",
                RelativeTime.ago(ms: sample.now - (session.lastObserved.map(Double.init) ?? sample.now)),
            ])
        }
        if sample.sessions.isEmpty {
            lines.append("no live sessions")
        } else {
            lines += table.lines(width: width)
        }
        var footer = interactive ? "q quits" : "one snapshot (stdout is not a terminal)"
        let shown = min(room, sample.sessions.count)
        footer += "   busiest \(shown) of \(sample.total) live sessions"
        if interactive { footer += "   every \(RelativeTime.duration(ms: intervalSeconds * 1000))" }
        if let height, lines.count + 1 < height {
            lines += Array(repeating: "", count: height - lines.count - 1)
        }
        lines.append(problem.map { Terminal.paint($0, "31") } ?? Terminal.paint(footer, "2"))
        if let height, height > 0, lines.count > height { lines = Array(lines.prefix(height - 1)) + [lines[lines.count - 1]] }
        return width.map { w in lines.map { Terminal.clip($0, to: w) } } ?? lines
    }
}
