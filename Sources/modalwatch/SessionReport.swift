import ControlProtocol
import Foundation
import Glibc

/// The text `modalwatch session ID` prints, from the daemon's `session` reply.
struct SessionReport {
    let reply: SessionReply
    private var session: SessionInfo { reply.session }
    private var now: Double { Double(reply.now) }
    private var latestTs: Double { Double(reply.session.lastTs ?? 0) }

    init(reply: SessionReply) {
        self.reply = reply
    }

    private var width: Int? { Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size()?.columns : nil }

    func lines() -> [String] {
        header() + [""] + stack() + [""] + timeline() + [""] + recentEvents() + [""] + violations() + [""] + journal()
    }

    private func title(_ text: String) -> String { Terminal.paint(text, "1") }

    private func header() -> [String] {
        let live = session.live ?? false
        let lastSeen = session.lastObserved.map { RelativeTime.ago(ms: now - Double($0)) } ?? "-"
        let state = live ? Terminal.paint("live", "32") : Terminal.paint("not live (ended or released)", "2")
        var first = "Session \(session.id)   \(session.app ?? "-")"
        if let device = session.device { first += "   \(device)" }
        if let edition = session.edition { first += "   edition \(edition)" }
        first += "   \(state), last event \(lastSeen)"
        var lines = [title(first)]
        let started = session.startedTs.map(Double.init) ?? latestTs
        var counters = ["events \(session.events)", "alerts \(session.alerts)"]
        if let presentations = session.presentations { counters.append("presentations \(presentations)") }
        if let depth = session.modalDepth { counters.append("modal depth \(depth) (max \(session.maxDepth ?? depth))") }
        let violations = session.violations
        counters.append(violations > 0 ? Terminal.paint("violations \(violations)", "33") : "violations 0")
        if let tasks = session.tasksRunning { counters.append("tasks running \(tasks)") }
        if let foreground = session.foreground {
            counters.append(foreground ? "in the foreground" : "in the background")
        }
        lines.append("  " + counters.joined(separator: "   "))
        lines.append("  \(RelativeTime.duration(ms: latestTs - started)) of event time since it started")
        return lines
    }

    private func stack() -> [String] {
        let stack = session.stack ?? []
        let modal = session.modalDepth ?? 0
        guard !stack.isEmpty else { return [title("Presentation stack"), "  (empty: nothing presented now)"] }
        var lines = [title("Presentation stack") + " (\(stack.count) presented, modal depth \(modal); bottom first)"]
        for (level, entry) in stack.enumerated() {
            let tree = level == 0 ? "" : String(repeating: "   ", count: level - 1) + "└─ "
            let kind = Terminal.paint(entry.kind, entry.kind == "alert" ? "35" : "36")
            var text = "  \(Terminal.pad("\(entry.depth)", 3, right: true))  \(tree)\(kind) \(entry.id)"
            if let name = entry.title {
                text += "  \u{201C}\(name)\(entry.truncated ? "\u{2026}" : "")\u{201D}"
            }
            text += "  presented \(RelativeTime.ago(ms: Double(entry.ageMs)))"
            text += ", \(Self.before(latestTs - Double(entry.ts)))"
            if entry.navDepth > 0 { text += ", nav depth \(entry.navDepth)" }
            lines.append(width.map { Terminal.clip(text, to: $0) } ?? text)
        }
        return lines
    }

    /// Event time before the session's latest event, for people.
    static func before(_ ms: Double) -> String {
        ms <= 0 ? "at the latest event" : "\(RelativeTime.duration(ms: ms)) before the latest event"
    }

    private func detail(_ record: JournalRecord) -> String {
        var parts: [String] = []
        let cut = record.truncated ? "\u{2026}" : ""
        if let name = record.title { parts.append("\u{201C}\(name)\(cut)\u{201D}") }
        if let label = record.label { parts.append("\u{201C}\(label)\(cut)\u{201D}") }
        if let app = record.app { parts.append(app) }
        if let device = record.device { parts.append(device) }
        if let control = record.control { parts.append(control) }
        if let state = record.state { parts.append(state) }
        if let button = record.button { parts.append("button \(button)") }
        if let via = record.via { parts.append("via \(via)") }
        return parts.joined(separator: " ")
    }

    private func eventTable(_ records: [JournalRecord], timeline: Bool) -> [String] {
        var table = TextTable(
            ["EVENT TIME", "RECEIVED", timeline ? "ALERT" : "EVENT", "ID", "DETAIL", "STACK", "NEW VIOLATIONS"],
            rightAligned: [0, 5, 6]
        )
        for record in records {
            table.add([
                RelativeTime.offset(ms: Double(record.ts) - latestTs),
                RelativeTime.ago(ms: Double(record.ageMs)),
                timeline ? String(record.type.dropFirst("alert.".count)) : record.type,
                record.id ?? "",
                detail(record),
                "\(record.stackDepth)",
                record.newViolations.map { $0 > 0 ? Terminal.paint("\($0)", "33") : "0" } ?? "?",
            ])
        }
        return table.lines(width: width).map { "  " + $0 }
    }

    private func timeline() -> [String] {
        let events = reply.timeline
        guard !events.isEmpty else { return [title("Alert timeline"), "  (no alerts in the journal)"] }
        return [title("Alert timeline") + " (\(events.count) alert events; event time relative to the latest event)"]
            + eventTable(events, timeline: true)
    }

    private func recentEvents() -> [String] {
        let events = reply.events
        guard !events.isEmpty else { return [title("Recent events"), "  (none in the journal)"] }
        return [title("Recent events") + " (last \(events.count) of \(reply.journal.events) in the journal)"]
            + eventTable(events, timeline: false)
    }

    private func violations() -> [String] {
        guard let list = reply.violations else {
            return [title("Violations"), "  (\(reply.violationsError ?? "no history"))"]
        }
        guard !list.isEmpty else { return [title("Violations"), "  none stored for this session"] }
        var table = TextTable(["FOUND", "SEVERITY", "RULE", "SUBJECT", "MESSAGE"])
        for v in list {
            let severity = v["severity"]?.stringValue ?? "?"
            table.add([
                RelativeTime.ago(ms: now - (v["observed"]?.doubleValue ?? now)),
                Terminal.severity(severity, severity),
                v["rule"]?.stringValue ?? "?",
                v["subject"]?.stringValue ?? "-",
                v["message"]?.stringValue ?? "",
            ])
            if let suggestion = v["suggestion"]?.stringValue {
                table.add(["", "", "", "", "suggestion: " + suggestion])
            }
        }
        return [title("Violations") + " (\(list.count), newest first)"] + table.lines(width: width).map { "  " + $0 }
    }

    private func journal() -> [String] {
        let journal = reply.journal
        let note =
            journal.complete
            ? "every event of this session is still there" : "older events of this session have left the ring"
        return [
            Terminal.paint(
                "The timeline and events show what is still in the daemon's journal (\(journal.held) of \(journal.capacity) entries, all sessions): \(note).",
                "2"
            )
        ]
    }
}
