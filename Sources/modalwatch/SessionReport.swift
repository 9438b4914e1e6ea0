import Foundation
import Glibc

/// The text `modalwatch session ID` prints, from the daemon's `session` reply.
struct SessionReport {
    let session: [String: Any]
    let now: Double
    let latestTs: Double
    let reply: [String: Any]

    init(reply: [String: Any]) {
        self.reply = reply
        session = reply["session"] as? [String: Any] ?? [:]
        now = RelativeTime.number(reply["now"]) ?? RelativeTime.nowMs
        latestTs = RelativeTime.number(session["last_ts"]) ?? 0
    }

    private var width: Int? { Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size()?.columns : nil }

    func lines() -> [String] {
        header() + [""] + stack() + [""] + timeline() + [""] + recentEvents() + [""] + violations() + [""] + journal()
    }

    private func title(_ text: String) -> String { Terminal.paint(text, "1") }

    private func header() -> [String] {
        let live = session["live"] as? Bool ?? false
        let lastSeen = RelativeTime.number(session["last_observed"]).map { RelativeTime.ago(ms: now - $0) } ?? "-"
        let state = live ? Terminal.paint("live", "32") : Terminal.paint("not live (ended or released)", "2")
        var first = "Session \(session["id"] ?? "?")   \(session["app"] as? String ?? "-")"
        if let device = session["device"] { first += "   \(device)" }
        if let edition = session["edition"] { first += "   edition \(edition)" }
        first += "   \(state), last event \(lastSeen)"
        var lines = [title(first)]
        let started = RelativeTime.number(session["started_ts"]) ?? latestTs
        var counters = [
            "events \(session["events"] ?? 0)", "alerts \(session["alerts"] ?? 0)",
        ]
        if let presentations = session["presentations"] { counters.append("presentations \(presentations)") }
        if let depth = session["modal_depth"] { counters.append("modal depth \(depth) (max \(session["max_depth"] ?? depth))") }
        let violations = session["violations"] as? Int ?? 0
        counters.append(violations > 0 ? Terminal.paint("violations \(violations)", "33") : "violations 0")
        if let tasks = session["tasks_running"] { counters.append("tasks running \(tasks)") }
        if let foreground = session["foreground"] as? Bool { counters.append(foreground ? "in the foreground" : "in the background") }
        lines.append("  " + counters.joined(separator: "   "))
        lines.append("  \(RelativeTime.duration(ms: latestTs - started)) of event time since it started")
        return lines
    }

    private func stack() -> [String] {
        let stack = session["stack"] as? [[String: Any]] ?? []
        let modal = session["modal_depth"] ?? 0
        guard !stack.isEmpty else { return [title("Presentation stack"), "  (empty: nothing presented now)"] }
        var lines = [title("Presentation stack") + " (\(stack.count) presented, modal depth \(modal); bottom first)"]
        for (level, entry) in stack.enumerated() {
            let tree = level == 0 ? "" : String(repeating: "   ", count: level - 1) + "└─ "
            let kind = Terminal.paint("\(entry["kind"] ?? "?")", entry["kind"] as? String == "alert" ? "35" : "36")
            var text = "  \(Terminal.pad("\(entry["depth"] ?? level)", 3, right: true))  \(tree)\(kind) \(entry["id"] ?? "?")"
            if let name = entry["title"] as? String {
                text += "  \u{201C}\(name)\(entry["truncated"] as? Bool == true ? "\u{2026}" : "")\u{201D}"
            }
            let ts = RelativeTime.number(entry["ts"]) ?? latestTs
            text += "  presented \(RelativeTime.ago(ms: RelativeTime.number(entry["age_ms"]) ?? 0))"
            text += ", \(Self.before(latestTs - ts))"
            if let nav = entry["nav_depth"] as? Int, nav > 0 { text += ", nav depth \(nav)" }
            lines.append(width.map { Terminal.clip(text, to: $0) } ?? text)
        }
        return lines
    }

    /// Event time before the session's latest event, for people.
    static func before(_ ms: Double) -> String {
        ms <= 0 ? "at the latest event" : "\(RelativeTime.duration(ms: ms)) before the latest event"
    }

    private func records(_ key: String) -> [[String: Any]] { reply[key] as? [[String: Any]] ?? [] }

    private func detail(_ record: [String: Any]) -> String {
        var parts: [String] = []
        let cut = record["truncated"] as? Bool == true ? "\u{2026}" : ""
        if let name = record["title"] as? String { parts.append("\u{201C}\(name)\(cut)\u{201D}") }
        if let label = record["label"] as? String { parts.append("\u{201C}\(label)\(cut)\u{201D}") }
        if let app = record["app"] as? String { parts.append(app) }
        if let device = record["device"] as? String { parts.append(device) }
        if let control = record["control"] as? String { parts.append(control) }
        if let state = record["state"] as? String { parts.append(state) }
        if let button = record["button"] as? Int { parts.append("button \(button)") }
        if let via = record["via"] as? String { parts.append("via \(via)") }
        return parts.joined(separator: " ")
    }

    private func eventTable(_ records: [[String: Any]], timeline: Bool) -> [String] {
        var table = TextTable(["EVENT TIME", "RECEIVED", timeline ? "ALERT" : "EVENT", "ID", "DETAIL", "STACK", "NEW VIOLATIONS"],
                              rightAligned: [0, 5, 6])
        for record in records {
            let type = record["type"] as? String ?? "?"
            let new = record["new_violations"] as? Int
            table.add([
                RelativeTime.offset(ms: (RelativeTime.number(record["ts"]) ?? latestTs) - latestTs),
                RelativeTime.ago(ms: RelativeTime.number(record["age_ms"]) ?? 0),
                timeline ? String(type.dropFirst("alert.".count)) : type,
                record["id"] as? String ?? "",
                detail(record),
                "\(record["stack_depth"] ?? 0)",
                new.map { $0 > 0 ? Terminal.paint("\($0)", "33") : "0" } ?? "?",
            ])
        }
        return table.lines(width: width).map { "  " + $0 }
    }

    private func timeline() -> [String] {
        let events = records("timeline")
        guard !events.isEmpty else { return [title("Alert timeline"), "  (no alerts in the journal)"] }
        return [title("Alert timeline") + " (\(events.count) alert events; event time relative to the latest event)"]
            + eventTable(events, timeline: true)
    }

    private func recentEvents() -> [String] {
        let events = records("events")
        let total = (reply["journal"] as? [String: Any])?["events"] as? Int ?? events.count
        guard !events.isEmpty else { return [title("Recent events"), "  (none in the journal)"] }
        return [title("Recent events") + " (last \(events.count) of \(total) in the journal)"] + eventTable(events, timeline: false)
    }

    private func violations() -> [String] {
        guard let list = reply["violations"] as? [[String: Any]] else {
            return [title("Violations"), "  (\(reply["violations_error"] as? String ?? "no history"))"]
        }
        guard !list.isEmpty else { return [title("Violations"), "  none stored for this session"] }
        var table = TextTable(["FOUND", "SEVERITY", "RULE", "SUBJECT", "MESSAGE"])
        for v in list {
            let severity = v["severity"] as? String ?? "?"
            table.add([
                RelativeTime.ago(ms: now - (RelativeTime.number(v["observed"]) ?? now)),
                Terminal.severity(severity, severity),
                v["rule"] as? String ?? "?",
                v["subject"] as? String ?? "-",
                v["message"] as? String ?? "",
            ])
        }
        return [title("Violations") + " (\(list.count), newest first)"] + table.lines(width: width).map { "  " + $0 }
    }

    private func journal() -> [String] {
        guard let journal = reply["journal"] as? [String: Any] else { return [] }
        let complete = journal["complete"] as? Bool ?? false
        let note = complete ? "every event of this session is still there" : "older events of this session have left the ring"
        return [Terminal.paint("The timeline and events show what is still in the daemon's journal (\(journal["held"] ?? 0) of \(journal["capacity"] ?? 0) entries, all sessions): \(note).", "2")]
    }
}
