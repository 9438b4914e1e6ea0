import Foundation
import RuleHost
import HistoryStore
import ModalwatchConfig
import SessionEngine

/// Answers control requests (interfaces.md, "The control socket"; docs/control-protocol.md):
/// one JSON object in, one out; a malformed request gets an error reply, never a hang.
/// Runs on the ingest thread, so it reads the engine without locks.
final class ControlHandler {
    private unowned let loop: IngestLoop

    /// A request refused, with the one sentence the error reply carries.
    private struct Refusal: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    static let commands = "status, sessions, session, rules, reload, violations"

    init(loop: IngestLoop) {
        self.loop = loop
    }

    /// The reply to one request, as JSON bytes.
    func reply(to request: [UInt8]) -> [UInt8] {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(request), options: []) as? [String: Any] else {
                return error("the request must be a JSON object such as {\"cmd\": \"status\"}")
            }
            object = parsed
        } catch {
            return self.error("the request is not valid JSON; send an object such as {\"cmd\": \"status\"}")
        }
        if let version = object["v"], Self.wholeNumber(version) != ModalwatchVersion.controlProtocol {
            return error("unsupported protocol version \(version); this daemon speaks v\(ModalwatchVersion.controlProtocol)")
        }
        guard let command = object["cmd"] as? String else {
            return error("missing \"cmd\"; commands: \(Self.commands)")
        }
        do throws(Refusal) {
            switch command {
            case "status": return ok(loop.statusReport())
            case "sessions": return ok(try sessions(object))
            case "session": return ok(try session(object))
            case "rules":
                return ok(["rules": loop.rulesReport(), "edition": loop.pipeline.engine.configuration.defaultEdition.rawValue])
            case "reload":
                // A state change over the network: only when the config says so (issue 8).
                if loop.configuration.control.hasPrefix("tcp://") && !loop.configuration.controlAllowReloadOverTCP {
                    return error("reload is refused on a tcp:// control endpoint; send SIGHUP, use an ipc:// control endpoint, or set control_allow_reload_over_tcp: true")
                }
                switch loop.reload() {
                case .success(let summary): return ok(["reloaded": true, "summary": summary])
                case .failure(let failure): return error("reload refused: \(failure.description); the old configuration stays in force")
                }
            case "violations":
                return ok(try violations(object))
            default:
                return error("unknown command '\(command)'; commands: \(Self.commands)")
            }
        } catch {
            return self.error(error.message)
        }
    }

    // MARK: - Commands

    private func sessions(_ request: [String: Any]) throws(Refusal) -> [String: Any] {
        let engine = loop.pipeline.engine
        let app = try string(request, "app")
        let limit = try whole(request, "limit", default: 50, range: 0...1_000_000)
        let sort = try string(request, "sort") ?? "recent"
        guard let order = Engine.SessionOrder(rawValue: sort) else {
            throw Refusal("unknown sort '\(sort)'; use alerts, depth, violations, events or recent")
        }
        let listing = engine.sessionListing(app: app, order: order, limit: limit)
        var windows: [String: Int64] = [:]
        let objects = listing.sessions.map { s -> [String: Any] in
            var object = Self.sessionObject(s)
            let window = windows[s.app] ?? engine.alertWindowMs(forApp: s.app)
            windows[s.app] = window
            object["alerts_window"] = listing.recentAlerts[s.id] ?? 0
            object["window_ms"] = window
            return object
        }
        return ["total": listing.total, "now": WallClock.milliseconds(), "sessions": objects]
    }

    private func session(_ request: [String: Any]) throws(Refusal) -> [String: Any] {
        guard let id = try string(request, "id") else { throw Refusal("\"session\" needs \"id\": the session id") }
        let eventLimit = try whole(request, "events", default: 20, range: 0...SessionJournal.defaultCapacity)
        let violationLimit = try whole(request, "violations", default: 50, range: 0...10_000)
        let engine = loop.pipeline.engine
        let now = WallClock.milliseconds()
        let ended = try flag(request, "ended")
        let snapshot = engine.sessionSnapshot(id: id)
        guard snapshot != nil || ended else {
            throw Refusal("no live session '\(id)'; `modalwatch sessions` lists the live ones (add \"ended\": true for one that ended)")
        }
        let excerpt = engine.journalExcerpt(session: id)
        guard snapshot != nil || !excerpt.records.isEmpty else {
            throw Refusal("no session '\(id)' is live or still in the journal; `modalwatch sessions` lists the live ones")
        }
        let records = Self.recordObjects(excerpt, now: now)
        var object: [String: Any]
        if let snapshot {
            object = Self.sessionObject(snapshot)
            object["live"] = true
            object["stack"] = snapshot.stack.enumerated().map { depth, entry in
                var item: [String: Any] = [
                    "depth": depth, "kind": entry.kind, "id": entry.id, "ts": entry.ts, "nav_depth": entry.navDepth,
                    // Wall-clock age: when the session's latest event arrived, less the event time since.
                    "age_ms": max(0, now - snapshot.lastObserved + snapshot.lastTs - entry.ts),
                    "title": NSNull(),
                ]
                if let presented = excerpt.records.last(where: {
                    $0.type.hasSuffix(".presented") && $0.id == entry.id && $0.ts == entry.ts
                }) {
                    item["title"] = Self.nullable(presented.title)
                    if presented.truncated { item["truncated"] = true }
                    item["age_ms"] = max(0, now - presented.observed)
                }
                return item
            }
        } else {
            // Ended or released: what the journal remembers of its last launch.
            let first = excerpt.records.first, last = excerpt.records.last
            object = [
                "id": id, "live": false, "app": Self.nullable(excerpt.records.first(where: { $0.app != nil })?.app),
                "started_ts": Self.nullable(first?.sessionStartedTs), "last_ts": Self.nullable(last?.ts),
                "last_observed": Self.nullable(last?.observed), "events": excerpt.records.count,
                "alerts": excerpt.records.filter { $0.type == "alert.presented" }.count,
                "violations": last?.violations ?? 0, "stack": [] as [Any],
            ]
        }
        let timeline = zip(excerpt.records, records).filter { $0.0.type.hasPrefix("alert.") }.map(\.1)
        var reply: [String: Any] = [
            "session": object, "now": now,
            "timeline": Array(timeline.suffix(200)),
            "events": Array(records.suffix(eventLimit)),
            "journal": [
                "capacity": engine.journal.capacity, "recorded": engine.journal.recorded,
                "held": engine.journal.count, "events": excerpt.records.count, "complete": excerpt.complete,
            ] as [String: Any],
        ]
        if let history = loop.history {
            let app = snapshot?.app ?? excerpt.records.first(where: { $0.app != nil })?.app
            do {
                let rows = try history.find(HistoryQuery(app: app, session: id, limit: violationLimit))
                reply["violations"] = rows.compactMap(Self.published)
            } catch {
                reply["violations"] = NSNull()
                reply["violations_error"] = "the history store could not be read: \(error)"
            }
        } else {
            reply["violations"] = NSNull()
            reply["violations_error"] = "this daemon keeps no history (no state directory); start it with --state-dir"
        }
        return reply
    }

    private func violations(_ request: [String: Any]) throws(Refusal) -> [String: Any] {
        guard let history = loop.history else {
            throw Refusal("this daemon keeps no history (no state directory); start it with --state-dir")
        }
        var query = HistoryQuery(
            app: try string(request, "app"), rule: try string(request, "rule"), session: try string(request, "session"),
            limit: try whole(request, "limit", default: 100, range: 0...10_000))
        if let since = request["since"] {
            if let text = since as? String, let ms = DurationParser.milliseconds(text) {
                query.sinceObserved = WallClock.milliseconds() - ms
            } else if let ms = Self.wholeNumber(since) {
                query.sinceObserved = Int64(ms)
            } else {
                throw Refusal("since must be a duration such as \"15m\" or \"2h\", or a wall-clock time in ms")
            }
        }
        do {
            let rows = try history.find(query)
            let objects = rows.compactMap(Self.published)
            return ["violations": objects, "count": objects.count]
        } catch {
            throw Refusal("the history store could not be read: \(error)")
        }
    }

    // MARK: - Fields

    private func string(_ request: [String: Any], _ key: String) throws(Refusal) -> String? {
        guard let value = request[key], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw Refusal("\(key) must be a string") }
        return text
    }

    private func flag(_ request: [String: Any], _ key: String) throws(Refusal) -> Bool {
        guard let value = request[key], !(value is NSNull) else { return false }
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else {
            throw Refusal("\(key) must be true or false")
        }
        return number.boolValue
    }

    private func whole(_ request: [String: Any], _ key: String, default fallback: Int, range: ClosedRange<Int>) throws(Refusal) -> Int {
        guard let value = request[key], !(value is NSNull) else { return fallback }
        guard let number = Self.wholeNumber(value) else { throw Refusal("\(key) must be a whole number") }
        guard range.contains(number) else {
            throw Refusal(range.lowerBound == 0 && number < 0
                ? "\(key) must be 0 or more" : "\(key) must be \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A JSON whole number as Int; nil for booleans, fractions (1.0 too) and anything else.
    static func wholeNumber(_ value: Any) -> Int? {
        guard let number = value as? NSNumber else { return nil }
        switch String(cString: number.objCType) {
        case "c", "d", "f": return nil
        // Foundation hands 2^63...2^64-1 back as unsigned: larger than any limit, never negative.
        case "Q": return number.uint64Value > UInt64(Int.max) ? Int.max : number.intValue
        default: return number.intValue
        }
    }

    // MARK: - Objects

    /// A value, or JSON null.
    static func nullable(_ value: (some Any)?) -> Any {
        value.map { $0 as Any } ?? NSNull()
    }

    static func sessionObject(_ s: SessionSnapshot) -> [String: Any] {
        [
            "id": s.id, "app": s.app, "device": s.device, "edition": s.edition,
            "started_ts": s.startedTs, "last_ts": s.lastTs, "last_observed": s.lastObserved,
            "events": s.events, "alerts": s.alerts, "presentations": s.presentations,
            "modal_depth": s.modalDepth, "max_depth": s.maxModalDepth, "violations": s.violations,
            "foreground": s.foreground, "tasks_running": s.tasksRunning, "stack_depth": s.stack.count,
        ]
    }

    /// The journal's records as JSON objects, oldest first, with the violations each event raised.
    static func recordObjects(_ excerpt: Engine.JournalExcerpt, now: Int64) -> [[String: Any]] {
        var previous: UInt64? = excerpt.complete ? 0 : nil
        return excerpt.records.map { record in
            var object: [String: Any] = [
                "type": record.type, "ts": record.ts, "observed": record.observed,
                "age_ms": max(0, now - record.observed),
                "modal_depth": record.modalDepth, "stack_depth": record.stackDepth,
            ]
            if record.seq > 0 { object["seq"] = record.seq }
            if let id = record.id { object["id"] = id }
            if let title = record.title { object[record.type == "user.action" ? "label" : "title"] = title }
            if record.truncated { object["truncated"] = true }
            if let button = record.button { object["button"] = button }
            if let via = record.via { object["via"] = via }
            if let state = record.state { object["state"] = state }
            if let control = record.control { object["control"] = control }
            if let device = record.device { object["device"] = device }
            if let app = record.app { object["app"] = app }
            if let previous { object["new_violations"] = record.violations >= previous ? record.violations - previous : 0 }
            previous = record.violations
            return object
        }
    }

    // MARK: - Replies

    private func ok(_ fields: [String: Any]) -> [UInt8] {
        var object = fields
        object["ok"] = true
        object["v"] = ModalwatchVersion.controlProtocol
        return Self.encode(object)
    }

    private func error(_ message: String) -> [UInt8] {
        Self.encode(["ok": false, "v": ModalwatchVersion.controlProtocol, "error": message])
    }

    static func encode(_ object: [String: Any]) -> [UInt8] {
        ControlReply.encode(object) ?? Array(#"{"ok":false,"error":"internal error: reply could not be encoded"}"#.utf8)
    }

    /// A stored violation as it goes into a reply: its JSON exactly as published, not parsed
    /// again (nil for a row that does not hold a JSON object, which the daemon never writes).
    static func published(_ row: StoredViolation) -> ControlReply.Raw? {
        let bytes = Array(row.json.utf8)
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        return ControlReply.Raw(bytes: bytes)
    }
}
