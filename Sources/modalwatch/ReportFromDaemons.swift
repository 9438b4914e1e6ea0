import ArgumentParser
import Foundation
import Report
import RuleHost

/// `modalwatch report --control EP...`: the violations and counters of running daemons, merged
/// (sharded daemons each hold their shard's sessions). A daemon answers `violations` with at most
/// its newest 10,000; the report says when that bound was reached.
struct ReportFromDaemons {
    let endpoints: [String]
    let timeoutMs: Int
    let worst: Int

    /// The most violations one `violations` request returns (the control protocol's bound).
    static let replyLimit = 10_000

    func report(filter: ReportFilter, generated: Int64) throws -> HTMLReport {
        var rules: [ReportRule] = []
        var seenRules: Set<String> = []
        var objects: [[String: Any]] = []
        var events = 0
        var live = 0
        var notes: [String] = []
        for endpoint in endpoints {
            let client = ControlClient(endpoint: endpoint, timeoutMs: timeoutMs)
            let status = try client.request(["cmd": "status"])
            events += (status["events_received"] as? NSNumber)?.intValue ?? 0
            live += (status["sessions_live"] as? NSNumber)?.intValue ?? 0
            let described = try client.request(["cmd": "rules"])
            for rule in described["rules"] as? [[String: Any]] ?? [] {
                guard let id = rule["id"] as? String, seenRules.insert(id).inserted else { continue }
                rules.append(ReportRule(id: id, module: rule["module"] as? String ?? "?",
                                        severity: (rule["severity"] as? String).flatMap(Severity.init(rawValue:)) ?? .warning,
                                        guideline: rule["guideline"] as? String ?? "", summary: rule["summary"] as? String ?? ""))
            }
            var request: [String: Any] = ["cmd": "violations", "limit": Self.replyLimit]
            if let app = filter.app { request["app"] = app }
            let reply = try client.request(request)
            if let error = reply["history_error"] as? String { notes.append("\(endpoint): \(error)") }
            let list = reply["violations"] as? [[String: Any]] ?? []
            if list.count >= Self.replyLimit {
                notes.append("\(endpoint) answered with its newest \(Self.replyLimit) violations; for every stored one, run the report on its --state-dir.")
            }
            objects += list
        }
        let model = ReportModel(rules: rules, filter: filter, worstSessionCount: worst)
        // Oldest first, as a stream would give them.
        let violations = objects.compactMap(Self.violation).sorted { $0.ts < $1.ts }
        for violation in violations { model.add(violation) }
        let source = ReportSource(kind: .daemons, names: endpoints, generated: generated,
                                  daemonEvents: events, daemonLiveSessions: live, notes: notes)
        return HTMLReport(model: model, source: source)
    }

    /// A violation object from a control reply.
    static func violation(_ object: [String: Any]) -> ReportViolation? {
        guard let rule = object["rule"] as? String, let app = object["app"] as? String, let session = object["session"] as? String,
              let severity = (object["severity"] as? String).flatMap(Severity.init(rawValue:)),
              let ts = (object["ts"] as? NSNumber)?.int64Value else { return nil }
        return ReportViolation(rule: rule, severity: severity, app: app, session: session, ts: ts,
                               subject: object["subject"] as? String, message: object["message"] as? String)
    }
}
