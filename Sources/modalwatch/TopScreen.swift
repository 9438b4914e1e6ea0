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
        lines += Self.flow(
            [
                Terminal.paint("modalwatch top", "1"), endpoint,
                "modalwatchd \(s.version), up \(uptime), edition \(s.edition)", clock,
            ],
            width: width,
            gap: 2
        )
        let eventRate = String(format: "%.1f", s.eventsPerSecond)
        let violationRate = sample.violationsPerSecond.map { String(format: "%.1f/s", $0) } ?? "-/s"
        let rate = sample.violationsPerSecond ?? 0
        lines += Self.flow(
            [
                "events \(s[.eventsReceived]) in, \(eventRate)/s",
                "rejected \(s[.eventsRejected])",
                "sessions \(s[.sessionsLive]) live",
                (rate > 0
                    ? Terminal.paint("violations \(s[.violationsPublished]) out, \(violationRate)", "33")
                    : "violations \(s[.violationsPublished]) out, \(violationRate)"),
                "dropped \(s[.messagesDropped])",
            ],
            width: width,
            gap: 3
        )
        lines.append("")
        var table = TextTable(
            ["SESSION", "APP", "EVENTS/S", "EVENTS", "ALERTS", "DEPTH", "MAX", "VIOLATIONS", "LAST EVENT"],
            rightAligned: [2, 3, 4, 5, 6, 7]
        )
        let room = height.map { max(0, $0 - lines.count - 2) } ?? sample.sessions.count
        let shownSessions = sample.sessions.prefix(room)
        let numbers = shownSessions.map { session -> [String] in
            let violations = session.violations
            return [
                sample.eventsPerSecond[session.id].map { String(format: "%.1f", $0) } ?? "-",
                "\(session.events)", session.alertsWindowText,
                "\(session.modalDepth ?? 0)", "\(session.maxDepth ?? 0)",
                violations > 0 ? Terminal.paint("\(violations)", "33") : "0",
                RelativeTime.ago(ms: sample.now - (session.lastObserved.map(Double.init) ?? sample.now)),
            ]
        }
        // SESSION and APP give way (cut with "…") so that the numbers fit the width.
        let numberColumns = table.headers.dropFirst(2).enumerated().map { column, header in
            numbers.reduce(Terminal.visibleWidth(header)) { max($0, Terminal.visibleWidth($1[column])) } + 2
        }.reduce(0, +)
        let (idWidth, appWidth) = Self.nameWidths(
            ids: shownSessions.map(\.id),
            apps: shownSessions.map { $0.app ?? "?" },
            width: width,
            numbers: numberColumns
        )
        for (session, cells) in zip(shownSessions, numbers) {
            table.add([Self.cut(session.id, idWidth), Self.cut(session.app ?? "?", appWidth)] + cells)
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
        if let height, height > 0, lines.count > height {
            lines = Array(lines.prefix(height - 1)) + [lines[lines.count - 1]]
        }
        return width.map { w in lines.map { Terminal.clip($0, to: w) } } ?? lines
    }

    /// `parts` on as few lines as fit `width` (one line when unbounded), `gap` spaces between them.
    static func flow(_ parts: [String], width: Int?, gap: Int) -> [String] {
        let spacer = String(repeating: " ", count: gap)
        guard let width else { return [parts.joined(separator: spacer)] }
        var lines: [String] = []
        var current = ""
        for part in parts {
            if !current.isEmpty && Terminal.visibleWidth(current) + gap + Terminal.visibleWidth(part) > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : spacer) + part
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The widths of the SESSION and APP columns: as wide as their values, narrowed (each to
    /// at least 8, the wider first) until a row fits `width`, given the room the other columns take.
    static func nameWidths(ids: [String], apps: [String], width: Int?, numbers: Int) -> (Int, Int) {
        var id = max(7, ids.map(Terminal.visibleWidth).max() ?? 0)
        var app = max(3, apps.map(Terminal.visibleWidth).max() ?? 0)
        guard let width else { return (id, app) }
        let room = max(16, width - numbers - 2)
        while id + app > room && (id > 8 || app > 8) {
            if app >= id && app > 8 { app -= 1 } else if id > 8 { id -= 1 } else { app -= 1 }
        }
        return (id, app)
    }

    /// `text` cut to `width` visible characters, its last one an ellipsis when cut.
    static func cut(_ text: String, _ width: Int) -> String {
        guard Terminal.visibleWidth(text) > width else { return text }
        return Terminal.clip(text, to: max(0, width - 1)) + "…"
    }
}
