import ControlProtocol
import Report
import RuleHost

/// `modalwatch report --control EP...`: the violations and counters of running daemons, merged
/// (sharded daemons each hold their shard's sessions), through the typed control protocol. Every
/// stored violation is read, page by page (`next` / `cursor`), straight into the model.
struct ReportFromDaemons {
    let endpoints: [String]
    let timeoutMs: Int
    let worst: Int

    func report(filter: ReportFilter, generated: Int64) throws -> HTMLReport {
        var rules: [ReportRule] = []
        var seenRules: Set<String> = []
        var events = 0
        var live = 0
        let clients = endpoints.map { ControlClient(endpoint: $0, timeoutMs: timeoutMs) }
        for client in clients {
            let status = try client.ask(StatusRequest())
            events += status[.eventsReceived]
            live += status[.sessionsLive]
            for rule in try client.ask(RulesRequest()).rules where seenRules.insert(rule.id).inserted {
                rules.append(
                    ReportRule(
                        id: rule.id,
                        module: rule.module,
                        severity: Severity(name: rule.severity) ?? .warning,
                        guideline: rule.guideline,
                        summary: rule.summary
                    )
                )
            }
        }
        let model = ReportModel(rules: rules, filter: filter, worstSessionCount: worst)
        var unreadable = 0
        for client in clients {
            var request = ViolationsRequest(app: filter.app, limit: ViolationsRequest.maximumLimit)
            while true {
                let reply = try client.ask(request)
                for object in reply.violations {
                    if let violation = Self.violation(object) { model.add(violation) } else { unreadable += 1 }
                }
                guard let next = reply.next, !reply.violations.isEmpty else { break }
                request.cursor = next
            }
        }
        let notes =
            unreadable > 0
            ? ["\(unreadable) violation(s) in the replies lacked a field the report counts and were left out."] : []
        let source = ReportSource(
            kind: .daemons,
            names: endpoints,
            generated: generated,
            daemonEvents: events,
            daemonLiveSessions: live,
            notes: notes
        )
        return HTMLReport(model: model, source: source)
    }

    /// A violation object from a `violations` reply; nil for one without the fields a report counts.
    static func violation(_ object: JSONValue) -> ReportViolation? {
        guard let rule = object["rule"]?.stringValue, let app = object["app"]?.stringValue,
            let session = object["session"]?.stringValue,
            let severity = object["severity"]?.stringValue.flatMap(Severity.init(name:)),
            let ts = object["ts"]?.wholeNumber
        else { return nil }
        let (suggestion, corrected) = ReportViolation.suggestion(of: object)
        return ReportViolation(
            rule: rule,
            severity: severity,
            app: app,
            session: session,
            ts: Int64(ts),
            subject: object["subject"]?.stringValue,
            message: object["message"]?.stringValue,
            suggestion: suggestion,
            corrected: corrected,
            locale: object["locale"]?.stringValue,
            subjectKind: ReportViolation.subjectKind(of: object)
        )
    }
}
