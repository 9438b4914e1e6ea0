import ControlProtocol
import CurveAuthentication
import Posix
import ModalwatchConfig
import RuleHost
import SessionEngine
import Synchronization
import ShardRouting

/// What the control socket reports about the loop.
extension IngestLoop {
    /// The `status` reply (interfaces.md; docs/control-protocol.md).
    func statusReport() -> StatusReply {
        let engine = pipeline.engine.statistics
        let pipe = pipeline.statistics
        let rejected = pipeline.rejectedByReason
        let published = publishing.statistics
        var reply = StatusReply()
        reply.uptimeSeconds = Double(WallClock.monotonicMilliseconds() - startedMonotonicMs) / 1000
        reply.started = startedAtMs
        reply.edition = configuration.engine.defaultEdition.rawValue
        reply.modules = catalog.modules.map {
            StatusReply.Module(
                name: $0.name, version: $0.version, rules: $0.rules.count, path: $0.path, abi: "\($0.abiMajor).\($0.abiMinor)")
        }
        reply.moduleFailures = catalog.failures.map(\.description)
        reply.moduleFilesChanged = moduleWatch.changed
        reply.moduleErrors = Dictionary(catalog.modules.map { ($0.name, Int(clamping: $0.runtime.errors)) }, uniquingKeysWith: +)
        reply.endpoints = endpoints
        reply.messagesReceived = Int(clamping: transportStatistics.messagesReceived)
        reply.eventsReceived = Int(clamping: pipe.eventsReceived)
        reply.eventsAccepted = Int(clamping: engine.eventsAccepted)
        reply.eventsJudged = Int(clamping: engine.eventsJudged)
        reply.eventsRejected = Int(clamping: rejected.values.reduce(0, +))
        reply.rejectedByReason = rejected.mapValues { Int(clamping: $0) }
        reply.eventsUnknownType = Int(clamping: engine.eventsUnknownType)
        reply.eventsPerSecond = eventsPerSecond
        reply.duplicates = Int(clamping: engine.duplicates)
        reply.eventsLost = Int(clamping: engine.eventsLost)
        reply.eventsMissingBeforeFirst = Int(clamping: engine.eventsMissingBeforeFirst)
        reply.outOfOrder = Int(clamping: engine.outOfOrder)
        reply.unknownDismissals = Int(clamping: engine.unknownDismissals)
        reply.sessionsLive = Int(clamping: pipeline.engine.liveSessions)
        reply.sessionsStarted = Int(clamping: engine.sessionsStarted)
        reply.sessionsEnded = Int(clamping: engine.sessionsEnded)
        reply.sessionsExpired = Int(clamping: engine.sessionsExpired)
        reply.sessionsEvicted = Int(clamping: engine.sessionsEvicted)
        reply.violationsFound = Int(clamping: engine.violations)
        reply.violationsPublished = Int(clamping: published.violationsPublished.load(ordering: .relaxed))
        reply.violationsStored = Int(clamping: published.violationsStored.load(ordering: .relaxed))
        reply.historyFailures = Int(clamping: published.storeFailures.load(ordering: .relaxed))
        reply.historyPruned = Int(clamping: published.historyPruned.load(ordering: .relaxed))
        reply.history = (try? IngestResources.historyTarget(configuration))??.description
        reply.reportsSuppressed = Int(clamping: engine.reportsSuppressed)
        reply.violationsRateLimited = Int(clamping: engine.violationsRateLimited)
        reply.violationsRateLimitedByRule = pipeline.engine.violationsRateLimitedByRule.mapValues { Int(clamping: $0) }
        reply.violationsRateLimitedByApp = pipeline.engine.violationsRateLimitedByApp.mapValues { Int(clamping: $0) }
        reply.appsKnown = pipeline.engine.appsKnown
        reply.appsEvicted = Int(clamping: engine.appsEvicted)
        reply.appValuesRefused = Int(clamping: engine.appValuesRefused)
        reply.ingestConnections = ingestConnections.open
        reply.ingestConnectionsMax = ingestConnections.limit
        reply.ingestConnectionsRefused = Int(clamping: ingestConnections.refused)
        reply.ingestAcceptFailures = Int(clamping: ingestConnections.acceptFailures)
        reply.descriptorLimit = Posix.descriptorLimit()
        reply.badEvidence = Int(clamping: engine.badEvidence)
        reply.diagnosticsPublished = Int(clamping: published.diagnosticsPublished.load(ordering: .relaxed))
        reply.diagnosticsSuppressed = Int(clamping: outbox.diagnosticsSuppressed)
        reply.messagesDropped = Int(clamping: published.messagesDropped.load(ordering: .relaxed))
        reply.subscriberOverflows = Int(clamping: published.subscriberOverflows.load(ordering: .relaxed))
        reply.curve = configuration.curve != nil
        reply.curveClientsAccepted = Int(clamping: zap?.accepted ?? 0)
        reply.curveClientsRefused = Int(clamping: zap?.refused ?? 0)
        reply.shard = configuration.shard.map { StatusReply.Shard(index: $0.index, count: $0.count, key: $0.key.rawValue) }
        reply.shardBuckets = configuration.shard?.ownedBuckets.count ?? 256
        reply.configReloads = Int(clamping: reloads.done)
        reply.configReloadsRefused = Int(clamping: reloads.refused)
        reply.faults = faultStatus()
        return reply
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
            ("modalwatch_apps_evicted_total", [], engine.appsEvicted),
            ("modalwatch_events_lost_total", [], engine.eventsLost),
            ("modalwatch_events_missing_before_first_total", [], engine.eventsMissingBeforeFirst),
            ("modalwatch_app_values_refused_total", [], engine.appValuesRefused),
            ("modalwatch_ingest_connections_refused_total", [], ingestConnections.refused),
            ("modalwatch_ingest_accept_failures_total", [], ingestConnections.acceptFailures),
        ]
        for (rule, count) in pipeline.engine.violationsRateLimitedByRule {
            totals.append(("modalwatch_violations_rate_limited_total", [("rule", rule)], count))
        }
        for (reason, count) in rejected { totals.append(("modalwatch_events_rejected_total", [("reason", reason)], count)) }
        for (key, count) in outbox.violationsByRule {
            totals.append(("modalwatch_violations_total", [("rule", key.rule), ("severity", key.severity)], count))
        }
        totals += storeHealthTotals()
        exporter.update(totals: totals, sessionsLive: pipeline.engine.liveSessions, lagSeconds: lagSeconds)
        exporter.record(gauge: "modalwatch_apps_known", Double(pipeline.engine.appsKnown))
        exporter.record(gauge: "modalwatch_ingest_connections", Double(ingestConnections.open))
        recordStoreHealthGauges(exporter)
    }

    /// One line for systemd's STATUS=: rates and counts.
    func statusLine() -> String {
        let rate = Int(eventsPerSecond.rounded())
        return "\(rate) events/s; \(pipeline.statistics.eventsReceived) in, \(pipeline.eventsRejected) rejected; "
            + "\(pipeline.engine.liveSessions) sessions; \(publishing.statistics.violationsPublished.load(ordering: .relaxed)) violations"
    }

    /// The `rules` reply: every loaded rule with its metadata and the parameter values in force.
    func rulesReport() -> RulesReply {
        let profile = pipeline.engine.profile(forApp: nil)
        let rules = catalog.rules.map { rule in
            let active = profile.rules.first { $0.descriptor.id == rule.id }
            var info = RuleInfo(
                id: rule.id, rev: rule.rev, module: rule.module,
                severity: (active?.severity ?? rule.severity).rawValue,
                editions: rule.editions.map(\.rawValue),
                active: active != nil,
                fire: rule.fire.rawValue,
                summary: rule.summary, guideline: rule.guideline, source: rule.source,
                parameters: rule.parameters.map { p in
                    let value = active?.value(of: p.name) ?? p.defaultValue
                    return RuleInfo.Parameter(
                        name: p.name, kind: p.kind.rawValue, defaultValue: p.defaultValue, value: value,
                        display: p.format(value), meaning: p.meaning)
                },
                examples: rule.examples.count)
            info.quarantined = quarantineReason(of: rule.id)
            return info
        }
        return RulesReply(edition: pipeline.engine.configuration.defaultEdition.rawValue, rules: rules)
    }
}
