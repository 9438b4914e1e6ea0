import Foundation
import RuleHost
import HistoryStore
import ModalwatchConfig
import SessionEngine

/// Answers control requests (interfaces.md, "The control socket"): one JSON
/// object in, one out; a malformed request gets an error reply, never a hang.
/// Runs on the ingest thread, so it reads the engine without locks.
final class ControlHandler {
    private unowned let loop: IngestLoop

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
            return error("missing \"cmd\"; commands: status, sessions, session, rules, reload, violations")
        }
        switch command {
        case "status": return ok(loop.statusReport())
        case "sessions": return sessions(object)
        case "session": return session(object)
        case "rules": return ok(["rules": loop.rulesReport()])
        case "reload":
            switch loop.reload() {
            case .success(let summary): return ok(["reloaded": true, "summary": summary])
            case .failure(let failure): return error("reload refused: \(failure.description); the old configuration stays in force")
            }
        case "violations":
            return violations(object)
        default:
            return error("unknown command '\(command)'; commands: status, sessions, session, rules, reload, violations")
        }
    }

    private func sessions(_ request: [String: Any]) -> [UInt8] {
        var list = loop.pipeline.engine.sessionSnapshots()
        if let app = request["app"] as? String { list = list.filter { $0.app == app } }
        switch request["sort"] as? String ?? "recent" {
        case "alerts": list.sort { $0.alerts > $1.alerts }
        case "depth": list.sort { ($0.modalDepth, $0.maxModalDepth) > ($1.modalDepth, $1.maxModalDepth) }
        case "violations": list.sort { $0.violations > $1.violations }
        case "recent": break
        case let other: return error("unknown sort '\(other)'; use alerts, depth, violations or recent")
        }
        if let raw = request["limit"], Self.wholeNumber(raw) == nil {
            return error("limit must be a whole number")
        }
        let limit = request["limit"].flatMap(Self.wholeNumber) ?? 50
        guard limit >= 0 else { return error("limit must be 0 or more") }
        let total = list.count
        return ok(["total": total, "sessions": list.prefix(limit).map(Self.sessionObject)])
    }

    private func session(_ request: [String: Any]) -> [UInt8] {
        guard let id = request["id"] as? String else { return error("\"session\" needs \"id\": the session id") }
        guard let snapshot = loop.pipeline.engine.sessionSnapshot(id: id) else {
            return error("no live session '\(id)'; `modalwatch sessions` lists the live ones")
        }
        var object = Self.sessionObject(snapshot)
        object["stack"] = snapshot.stack.map { ["kind": $0.kind, "id": $0.id, "ts": $0.ts, "nav_depth": $0.navDepth] as [String: Any] }
        return ok(["session": object])
    }

    private func violations(_ request: [String: Any]) -> [UInt8] {
        guard let history = loop.history else {
            return error("this daemon keeps no history (no state directory); start it with --state-dir")
        }
        var query = HistoryQuery(app: request["app"] as? String, rule: request["rule"] as? String,
                                 limit: request["limit"] as? Int ?? 100)
        guard query.limit >= 0 && query.limit <= 10_000 else { return error("limit must be 0 to 10000") }
        if let since = request["since"] {
            if let text = since as? String, let ms = DurationParser.milliseconds(text) {
                query.sinceObserved = WallClock.milliseconds() - ms
            } else if let ms = since as? Int {
                query.sinceObserved = Int64(ms)
            } else {
                return error("since must be a duration such as \"15m\" or \"2h\", or a wall-clock time in ms")
            }
        }
        do {
            let rows = try history.find(query)
            let objects = rows.compactMap { try? JSONSerialization.jsonObject(with: Data($0.json.utf8)) }
            return ok(["violations": objects, "count": objects.count])
        } catch {
            return self.error("the history store could not be read: \(error)")
        }
    }

    /// A JSON whole number as Int; nil for booleans, fractions (1.0 too) and anything else.
    static func wholeNumber(_ value: Any) -> Int? {
        guard let number = value as? NSNumber else { return nil }
        switch String(cString: number.objCType) {
        case "c", "d", "f": return nil
        default: return number.intValue
        }
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
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return Array(#"{"ok":false,"error":"internal error: reply could not be encoded"}"#.utf8)
        }
        return [UInt8](data)
    }
}
