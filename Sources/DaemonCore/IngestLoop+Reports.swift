import Foundation
import RuleHost
import SessionEngine

/// What the control socket reports about the loop.
extension IngestLoop {
    /// The `status` reply's fields (interfaces.md).
    func statusReport() -> [String: Any] {
        let engine = pipeline.engine.statistics
        let pipe = pipeline.statistics
        let rejected = pipeline.rejectedByReason
        let published = publishing.statistics
        return [
            "version": ModalwatchVersion.string,
            "protocol": ModalwatchVersion.controlProtocol,
            "uptime_s": Double(WallClock.monotonicMilliseconds() - startedMonotonicMs) / 1000,
            "started": startedAtMs,
            "edition": configuration.engine.defaultEdition.rawValue,
            "modules": catalog.modules.map { ["name": $0.name, "version": $0.version, "rules": $0.rules.count, "path": $0.path] as [String: Any] },
            "module_failures": catalog.failures.map(\.description),
            "endpoints": endpoints,
            "messages_received": transportStatistics.messagesReceived,
            "events_received": pipe.eventsReceived,
            "events_accepted": engine.eventsAccepted,
            "events_judged": engine.eventsJudged,
            "events_rejected": rejected.values.reduce(0, +),
            "rejected_by_reason": rejected,
            "events_unknown_type": engine.eventsUnknownType,
            "events_per_second": eventsPerSecond,
            "duplicates": engine.duplicates,
            "events_lost": engine.eventsLost,
            "out_of_order": engine.outOfOrder,
            "unknown_dismissals": engine.unknownDismissals,
            "sessions_live": pipeline.engine.liveSessions,
            "sessions_started": engine.sessionsStarted,
            "sessions_ended": engine.sessionsEnded,
            "sessions_expired": engine.sessionsExpired,
            "sessions_evicted": engine.sessionsEvicted,
            "violations_found": engine.violations,
            "violations_published": published.violationsPublished.load(ordering: .relaxed),
            "violations_stored": published.violationsStored.load(ordering: .relaxed),
            "history_failures": published.storeFailures.load(ordering: .relaxed),
            "history_pruned": published.historyPruned.load(ordering: .relaxed),
            "history": configuration.stateDirectory.map { $0 + "/history.sqlite" } ?? NSNull(),
            "reports_suppressed": engine.reportsSuppressed,
            "violations_rate_limited": engine.violationsRateLimited,
            "violations_rate_limited_by_rule": pipeline.engine.violationsRateLimitedByRule,
            "bad_evidence": engine.badEvidence,
            "diagnostics_published": published.diagnosticsPublished.load(ordering: .relaxed),
            "diagnostics_suppressed": outbox.diagnosticsSuppressed,
            "messages_dropped": published.messagesDropped.load(ordering: .relaxed),
            "subscriber_overflows": published.subscriberOverflows.load(ordering: .relaxed),
            "curve": configuration.curve != nil,
            "curve_clients_accepted": zap?.accepted ?? 0,
            "curve_clients_refused": zap?.refused ?? 0,
            "shard": configuration.shard.map { ["index": $0.index, "count": $0.count, "key": $0.key.rawValue] as [String: Any] } ?? NSNull(),
            "shard_buckets": configuration.shard?.ownedBuckets.count ?? 256,
            "config_reloads": reloads.done,
            "config_reloads_refused": reloads.refused,
        ]
    }

    /// Brings the Prometheus metrics up to the counters `status` reports.
    func updateMetrics(_ exporter: MetricsExporter, lagSeconds: Double) {
        let engine = pipeline.engine.statistics
        let rejected = pipeline.rejectedByReason
        let published = publishing.statistics
        var totals: [(name: String, dimensions: [(String, String)], value: UInt64)] = [
            ("modalwatch_messages_received_total", [], transportStatistics.messagesReceived),
            ("modalwatch_events_received_total", [], pipeline.statistics.eventsReceived),
            ("modalwatch_events_judged_total", [], engine.eventsJudged),
            ("modalwatch_violations_published_total", [], published.violationsPublished.load(ordering: .relaxed)),
            ("modalwatch_violations_stored_total", [], published.violationsStored.load(ordering: .relaxed)),
            ("modalwatch_diagnostics_published_total", [], published.diagnosticsPublished.load(ordering: .relaxed)),
            ("modalwatch_diagnostics_suppressed_total", [], outbox.diagnosticsSuppressed),
            ("modalwatch_messages_dropped_total", [], published.messagesDropped.load(ordering: .relaxed)),
            ("modalwatch_subscriber_overflows_total", [], published.subscriberOverflows.load(ordering: .relaxed)),
            ("modalwatch_sessions_evicted_total", [], engine.sessionsEvicted),
            ("modalwatch_violations_rate_limited_total", [], engine.violationsRateLimited),
        ]
        for (reason, count) in rejected { totals.append(("modalwatch_events_rejected_total", [("reason", reason)], count)) }
        for (key, count) in outbox.violationsByRule {
            totals.append(("modalwatch_violations_total", [("rule", key.rule), ("severity", key.severity)], count))
        }
        exporter.update(totals: totals, sessionsLive: pipeline.engine.liveSessions, lagSeconds: lagSeconds)
    }

    /// One line for systemd's STATUS=: rates and counts.
    func statusLine() -> String {
        let rate = Int(eventsPerSecond.rounded())
        return "\(rate) events/s; \(pipeline.statistics.eventsReceived) in, \(pipeline.eventsRejected) rejected; "
            + "\(pipeline.engine.liveSessions) sessions; \(publishing.statistics.violationsPublished.load(ordering: .relaxed)) violations"
    }

    /// The `rules` reply: every loaded rule with its metadata and the parameter values in force.
    func rulesReport() -> [[String: Any]] {
        let profile = pipeline.engine.profile(forApp: nil)
        return catalog.rules.map { rule in
            let active = profile.rules.first { $0.descriptor.id == rule.id }
            return [
                "id": rule.id, "rev": rule.rev, "module": rule.module,
                "severity": (active?.severity ?? rule.severity).rawValue,
                "editions": rule.editions.map(\.rawValue),
                "active": active != nil,
                "fire": rule.fire.rawValue,
                "summary": rule.summary, "guideline": rule.guideline, "source": rule.source,
                "parameters": rule.parameters.map { p in
                    [
                        "name": p.name, "kind": p.kind.rawValue, "default": p.defaultValue,
                        "value": active?.value(of: p.name) ?? p.defaultValue,
                        "display": p.format(active?.value(of: p.name) ?? p.defaultValue),
                        "meaning": p.meaning,
                    ] as [String: Any]
                },
                "examples": rule.examples.count,
            ] as [String: Any]
        }
    }
}
