import ByteBasics
import ConnectionLimits
import ControlProtocol
import CurveAuthentication
import EventDecoding
import ModalwatchConfig
import Posix
import RuleHost
import SessionEngine
import ShardRouting
import Synchronization

/// What the control socket reports about the loop.
extension IngestLoop {
    /// The counters `status` and the metrics report, read once.
    func counters() -> DaemonCounters {
        let engine = pipeline.engine.statistics
        let published = publishing.statistics
        let health = publishing.health
        var counters = DaemonCounters()
        // The store's state first (an acquiring load): the publishing thread counts what it stored
        // before it says ok, so the counts read after it are at least those of that moment.
        counters.historyState = health.state
        counters.plain[.violationsSpooled] = health.spooled.load(ordering: .relaxed)
        counters.plain[.messagesReceived] = transportStatistics.messagesReceived
        counters.plain[.eventsReceived] = pipeline.statistics.eventsReceived
        counters.plain[.eventsAccepted] = engine.eventsAccepted
        counters.plain[.eventsJudged] = engine.eventsJudged
        counters.plain[.eventsUnknownType] = engine.eventsUnknownType
        counters.plain[.duplicates] = engine.duplicates
        counters.plain[.outOfOrder] = engine.outOfOrder
        counters.plain[.unknownDismissals] = engine.unknownDismissals
        counters.plain[.sessionsLive] = UInt64(pipeline.engine.liveSessions)
        counters.plain[.sessionsStarted] = engine.sessionsStarted
        counters.plain[.sessionsEnded] = engine.sessionsEnded
        counters.plain[.sessionsExpired] = engine.sessionsExpired
        counters.plain[.violationsFound] = engine.violations
        counters.plain[.reportsSuppressed] = engine.reportsSuppressed
        counters.plain[.violationsRateLimited] = engine.violationsRateLimited
        counters.plain[.badEvidence] = engine.badEvidence
        counters.plain[.violationsPublished] = published.violationsPublished.load(ordering: .relaxed)
        counters.plain[.violationsStored] = published.violationsStored.load(ordering: .relaxed)
        counters.plain[.violationsAlreadyStored] = published.violationsAlreadyStored.load(ordering: .relaxed)
        counters.plain[.historyFailures] = published.storeFailures.load(ordering: .relaxed)
        counters.plain[.historyPruned] = published.historyPruned.load(ordering: .relaxed)
        counters.plain[.diagnosticsPublished] = published.diagnosticsPublished.load(ordering: .relaxed)
        counters.plain[.diagnosticsSuppressed] = outbox.diagnosticsSuppressed
        counters.plain[.messagesDropped] = published.messagesDropped.load(ordering: .relaxed)
        counters.plain[.subscriberOverflows] = published.subscriberOverflows.load(ordering: .relaxed)
        counters.plain[.subscriptionsRefused] = published.subscriptionsRefused.load(ordering: .relaxed)
        counters.plain[.sessionsEvicted] = engine.sessionsEvicted
        counters.plain[.appsKnown] = UInt64(pipeline.engine.appsKnown)
        counters.plain[.appsEvicted] = engine.appsEvicted
        counters.plain[.eventsLost] = engine.eventsLost
        counters.plain[.eventsMissingBeforeFirst] = engine.eventsMissingBeforeFirst
        counters.plain[.appValuesRefused] = engine.appValuesRefused
        counters.plain[.ingestConnections] = UInt64(ingestConnections.open)
        counters.plain[.ingestConnectionsMax] = UInt64(clamping: ingestConnections.limit)
        counters.plain[.ingestConnectionsRefused] = ingestConnections.refused
        for guarded in sideConnections { counters.connectionsRefusedBySocket[guarded.name] = guarded.refused }
        counters.plain[.ingestAcceptFailures] = ingestConnections.acceptFailures
        counters.plain[.descriptorLimit] = UInt64(clamping: Posix.descriptorLimit())
        counters.plain[.curveClientsAccepted] = zap?.accepted ?? 0
        counters.plain[.curveClientsRefused] = zap?.refused ?? 0
        counters.plain[.configReloads] = UInt64(clamping: reloads.done)
        counters.plain[.configReloadsRefused] = UInt64(clamping: reloads.refused)
        counters.plain[.topicsTooLarge] = transportStatistics.topicsTooLarge
        counters.plain[.controlRequests] = UInt64(clamping: controlRequests)
        counters.plain[.controlHoldCPUMaxMicros] = UInt64(clamping: controlHolds.maxCPUMicros)
        counters.plain[.historyOutages] = health.outages.load(ordering: .relaxed)
        counters.plain[.spoolMemoryBytes] = health.spoolMemoryBytes.load(ordering: .relaxed)
        counters.plain[.spoolFileBytes] = health.spoolFileBytes.load(ordering: .relaxed)
        counters.plain[.violationsUnstored] = health.unstored.load(ordering: .relaxed)
        counters.plain[.violationsRecovered] = health.recovered.load(ordering: .relaxed)
        counters.plain[.spoolRecordsDamaged] = health.spoolDamaged.load(ordering: .relaxed)
        counters.plain[.historyWALBytes] = health.walBytes.load(ordering: .relaxed)
        counters.plain[.handoverDropped] = outbox.handoverDropped
        if let written = checkpointer?.writer.statistics {
            counters.plain[.checkpointsWritten] = written.written
            counters.plain[.checkpointFailures] = written.failed
            if written.written > 0 {
                counters.plain[.checkpointSessions] = UInt64(clamping: written.lastSessions)
                counters.plain[.checkpointBytes] = UInt64(clamping: written.lastBytes)
                counters.plain[.checkpointWalkMs] = UInt64(clamping: written.lastDurationMs)
            }
        }
        counters.rejectedByReason = pipeline.rejectedByReason
        counters.plain[.eventsRejected] = counters.rejectedByReason.values.reduce(0, +)
        counters.violationsRateLimitedByRule = pipeline.engine.violationsRateLimitedByRule
        counters.languagesSkipped = pipeline.engine.languagesSkipped
        return counters
    }

    /// The `status` reply (interfaces.md; docs/control-protocol.md) from `counters`, without the
    /// parts the control thread reads when it answers (`CounterSnapshot`).
    func statusReport(_ counters: DaemonCounters) -> StatusReply {
        var reply = StatusReply()
        reply.started = startedAtMs
        reply.edition = pipeline.engine.configuration.defaultEdition.name
        reply.modules = catalog.modules.map {
            StatusReply.Module(
                name: $0.name,
                version: $0.version,
                rules: $0.rules.count,
                path: $0.path,
                abi: "\($0.abiMajor).\($0.abiMinor)"
            )
        }
        reply.moduleFailures = catalog.failures.map(\.description)
        reply.moduleFilesChanged = moduleWatch.changed
        reply.moduleErrors = Dictionary(
            catalog.modules.map { ($0.name, Int(clamping: $0.runtime.errors)) },
            uniquingKeysWith: +
        )
        reply.endpoints = endpoints
        reply.counters = StatusCounters(clamping: counters.plain)
        reply.rejectedByReason = counters.rejectedByReason.mapValues { Int(clamping: $0) }
        reply.eventsPerSecond = eventsPerSecond
        reply.history = (try? configuration.historyTarget())??.description
        reply.violationsRateLimitedByRule = counters.violationsRateLimitedByRule.mapValues { Int(clamping: $0) }
        reply.violationsRateLimitedByApp = pipeline.engine.violationsRateLimitedByApp.mapValues { Int(clamping: $0) }
        for (rule, languages) in counters.languagesSkipped {
            for (language, count) in languages { reply.languagesSkipped["\(rule)/\(language)"] = Int(clamping: count) }
        }
        reply.curve = configuration.curve != nil
        reply.shard = configuration.shard.map {
            StatusReply.Shard(index: $0.index, count: $0.count, key: $0.key.rawValue)
        }
        reply.shardBuckets = configuration.shard?.ownedBuckets.count ?? 256
        reply.faults = faultStatus(counters)
        return reply
    }

    /// Publishes `counters` for `status` (`CounterSnapshot`).
    func publishStatus(_ counters: DaemonCounters) {
        counterSnapshot.publish(
            CounterSnapshot.Published(
                reply: statusReport(counters),
                startedMonotonicMs: startedMonotonicMs,
                publishedMonotonicMs: PosixClock.monotonic.milliseconds(),
                checkpointAtMs: checkpointAtMs()
            )
        )
    }

    /// Brings the Prometheus metrics up to `counters`, the ones `status` reports.
    func updateMetrics(_ exporter: MetricsExporter, _ counters: DaemonCounters, lagSeconds: Double) {
        var totals = counters.prometheusTotals
        for (key, count) in outbox.violationsByRule {
            totals.append(("modalwatch_violations_total", [("rule", key.rule), ("severity", key.severity)], count))
        }
        exporter.update(totals: totals, sessionsLive: pipeline.engine.liveSessions, lagSeconds: lagSeconds)
        exporter.record(gauge: "modalwatch_apps_known", Double(pipeline.engine.appsKnown))
        exporter.record(gauge: "modalwatch_ingest_connections", Double(ingestConnections.open))
        recordStoreHealthGauges(exporter)
    }

    /// The labelled metrics' zero series, before anything is counted: every loaded rule (with the
    /// severity it has by default) and every reason the decoder rejects for.
    func declareMetricSeries(_ exporter: MetricsExporter) {
        let profile = pipeline.engine.profile(forApp: nil)
        let rules = catalog.rules.map { rule in
            (
                rule: rule.id,
                severity: (profile.rules.first { $0.descriptor.id == rule.id }?.severity ?? rule.severity).name
            )
        }
        exporter.declare(
            rules: rules,
            rejectionReasons: RejectReason.allCases.map(\.rawValue) + [DiagnosticReason.unknownSession.rawValue]
        )
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
                id: rule.id,
                rev: rule.rev,
                module: rule.module,
                severity: (active?.severity ?? rule.severity).name,
                editions: rule.editions.map(\.name),
                active: active != nil,
                fire: rule.fire.rawValue,
                summary: rule.summary,
                guideline: rule.guideline,
                source: rule.source,
                parameters: rule.parameters.map { p in
                    let value = active?.value(of: p.name) ?? p.defaultValue
                    return RuleInfo.Parameter(
                        name: p.name,
                        kind: p.kind.name,
                        defaultValue: p.defaultValue,
                        value: value,
                        display: p.format(value),
                        meaning: p.meaning
                    )
                },
                examples: rule.examples.count
            )
            info.quarantined = quarantineReason(of: rule.id)
            info.languages = rule.languages.declaredName
            return info
        }
        return RulesReply(edition: pipeline.engine.configuration.defaultEdition.name, rules: rules)
    }
}
