import ControlProtocol
import Report
import RuleHost

/// `modalwatch report --control EP...`: the violations and counters of running daemons, merged
/// (sharded daemons each hold their shard's sessions), through the typed control protocol. A
/// daemon answers `violations` with at most its newest `ViolationsRequest.maximumLimit`; the
/// report says when that bound was reached.
struct ReportFromDaemons {
    let endpoints: [String]
    let timeoutMs: Int
    let worst: Int

    func report(filter: ReportFilter, generated: Int64) throws -> HTMLReport {
        var rules: [ReportRule] = []
        var seenRules: Set<String> = []
        var violations: [ReportViolation] = []
        var events = 0
        var live = 0
        var notes: [String] = []
        for endpoint in endpoints {
            let client = ControlClient(endpoint: endpoint, timeoutMs: timeoutMs)
            let status = try client.ask(StatusRequest())
            events += status.eventsReceived
            live += status.sessionsLive
            for rule in try client.ask(RulesRequest()).rules where seenRules.insert(rule.id).inserted {
                rules.append(ReportRule(id: rule.id, module: rule.module, severity: Severity(rawValue: rule.severity) ?? .warning,
                                        guideline: rule.guideline, summary: rule.summary))
            }
            let limit = ViolationsRequest.maximumLimit
            let reply = try client.ask(ViolationsRequest(app: filter.app, limit: limit))
            if reply.violations.count >= limit {
                notes.append("\(endpoint) answered with its newest \(limit) violations; for every stored one, make the report from its --state-dir.")
            }
            violations += reply.violations.compactMap(Self.violation)
        }
        let model = ReportModel(rules: rules, filter: filter, worstSessionCount: worst)
        // Oldest first, as a stream would give them.
        for violation in violations.sorted(by: { $0.ts < $1.ts }) { model.add(violation) }
        let source = ReportSource(kind: .daemons, names: endpoints, generated: generated,
                                  daemonEvents: events, daemonLiveSessions: live, notes: notes)
        return HTMLReport(model: model, source: source)
    }

    /// A violation object from a `violations` reply; nil for one without the fields a report counts.
    static func violation(_ object: JSONValue) -> ReportViolation? {
        guard let rule = object["rule"]?.stringValue, let app = object["app"]?.stringValue,
              let session = object["session"]?.stringValue,
              let severity = object["severity"]?.stringValue.flatMap(Severity.init(rawValue:)),
              let ts = object["ts"]?.wholeNumber else { return nil }
        return ReportViolation(rule: rule, severity: severity, app: app, session: session, ts: Int64(ts),
                               subject: object["subject"]?.stringValue, message: object["message"]?.stringValue)
    }
}
