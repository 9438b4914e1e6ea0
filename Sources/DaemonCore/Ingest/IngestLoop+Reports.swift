import ByteBasics
import ConnectionLimits
import ControlProtocol
import CurveAuthentication
import EventDecoding
import Posix
import ModalwatchConfig
import RuleHost
import SessionEngine
import Synchronization
import ShardRouting

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
        counters.violationsSpooled = Int(clamping: health.spooled.load(ordering: .relaxed))
        counters.messagesReceived = transportStatistics.messagesReceived
        counters.eventsReceived = pipeline.statistics.eventsReceived
        counters.eventsJudged = engine.eventsJudged
        counters.violationsPublished = published.violationsPublished.load(ordering: .relaxed)
        counters.violationsStored = published.violationsStored.load(ordering: .relaxed)
        counters.violationsAlreadyStored = published.violationsAlreadyStored.load(ordering: .relaxed)
        counters.diagnosticsPublished = published.diagnosticsPublished.load(ordering: .relaxed)
        counters.diagnosticsSuppressed = outbox.diagnosticsSuppressed
        counters.messagesDropped = published.messagesDropped.load(ordering: .relaxed)
        counters.subscriberOverflows = published.subscriberOverflows.load(ordering: .relaxed)
        counters.subscriptionsRefused = published.subscriptionsRefused.load(ordering: .relaxed)
        counters.sessionsEvicted = engine.sessionsEvicted
        counters.appsEvicted = engine.appsEvicted
        counters.eventsLost = engine.eventsLost
        counters.eventsMissingBeforeFirst = engine.eventsMissingBeforeFirst
        counters.appValuesRefused = engine.appValuesRefused
        counters.ingestConnectionsRefused = ingestConnections.refused
        for guarded in sideConnections { counters.connectionsRefusedBySocket[guarded.name] = guarded.refused }
        counters.ingestAcceptFailures = ingestConnections.acceptFailures
        counters.violationsUnstored = health.unstored.load(ordering: .relaxed)
        counters.violationsRecovered = health.recovered.load(ordering: .relaxed)
        counters.historyOutages = health.outages.load(ordering: .relaxed)
        if let written = checkpointer?.writer.statistics {
            counters.checkpointsWritten = written.written
            counters.checkpointFailures = written.failed
        }
        counters.spoolRecordsDamaged = health.spoolDamaged.load(ordering: .relaxed)
        counters.handoverDropped = outbox.handoverDropped
        counters.topicsTooLarge = transportStatistics.topicsTooLarge
        counters.rejectedByReason = pipeline.rejectedByReason
        counters.violationsRateLimitedByRule = pipeline.engine.violationsRateLimitedByRule
        counters.languagesSkipped = pipeline.engine.languagesSkipped
        return counters
    }

    /// The `status` reply (interfaces.md; docs/control-protocol.md).
    func statusReport() -> StatusReply {
        let engine = pipeline.engine.statistics
        let counters = counters()
        let rejected = counters.rejectedByReason
        let published = publishing.statistics
        var reply = StatusReply()
        reply.uptimeSeconds = Double(PosixClock.monotonic.milliseconds() - startedMonotonicMs) / 1000
        reply.started = startedAtMs
        reply.edition = pipeline.engine.configuration.defaultEdition.rawValue
        reply.modules = catalog.modules.map {
            StatusReply.Module(
                name: $0.name, version: $0.version, rules: $0.rules.count, path: $0.path, abi: "\($0.abiMajor).\($0.abiMinor)")
        }
        reply.moduleFailures = catalog.failures.map(\.description)
        reply.moduleFilesChanged = moduleWatch.changed
        reply.moduleErrors = Dictionary(catalog.modules.map { ($0.name, Int(clamping: $0.runtime.errors)) }, uniquingKeysWith: +)
        reply.endpoints = endpoints
        reply.messagesReceived = Int(clamping: counters.messagesReceived)
        reply.eventsReceived = Int(clamping: counters.eventsReceived)
        reply.eventsAccepted = Int(clamping: engine.eventsAccepted)
        reply.eventsJudged = Int(clamping: counters.eventsJudged)
        reply.eventsRejected = Int(clamping: rejected.values.reduce(0, +))
        reply.rejectedByReason = rejected.mapValues { Int(clamping: $0) }
        reply.eventsUnknownType = Int(clamping: engine.eventsUnknownType)
        reply.eventsPerSecond = eventsPerSecond
        reply.duplicates = Int(clamping: engine.duplicates)
        reply.eventsLost = Int(clamping: counters.eventsLost)
        reply.eventsMissingBeforeFirst = Int(clamping: counters.eventsMissingBeforeFirst)
        reply.outOfOrder = Int(clamping: engine.outOfOrder)
        reply.unknownDismissals = Int(clamping: engine.unknownDismissals)
        reply.sessionsLive = Int(clamping: pipeline.engine.liveSessions)
        reply.sessionsStarted = Int(clamping: engine.sessionsStarted)
        reply.sessionsEnded = Int(clamping: engine.sessionsEnded)
        reply.sessionsExpired = Int(clamping: engine.sessionsExpired)
        reply.sessionsEvicted = Int(clamping: counters.sessionsEvicted)
        reply.violationsFound = Int(clamping: engine.violations)
        reply.violationsPublished = Int(clamping: counters.violationsPublished)
        reply.violationsStored = Int(clamping: counters.violationsStored)
        reply.violationsAlreadyStored = Int(clamping: counters.violationsAlreadyStored)
        reply.historyFailures = Int(clamping: published.storeFailures.load(ordering: .relaxed))
        reply.historyPruned = Int(clamping: published.historyPruned.load(ordering: .relaxed))
        reply.history = (try? configuration.historyTarget())??.description
        reply.reportsSuppressed = Int(clamping: engine.reportsSuppressed)
        reply.violationsRateLimited = Int(clamping: engine.violationsRateLimited)
        reply.violationsRateLimitedByRule = counters.violationsRateLimitedByRule.mapValues { Int(clamping: $0) }
        reply.violationsRateLimitedByApp = pipeline.engine.violationsRateLimitedByApp.mapValues { Int(clamping: $0) }
        for (rule, languages) in counters.languagesSkipped {
            for (language, count) in languages { reply.languagesSkipped["\(rule)/\(language)"] = Int(clamping: count) }
        }
        reply.appsKnown = pipeline.engine.appsKnown
        reply.appsEvicted = Int(clamping: counters.appsEvicted)
        reply.appValuesRefused = Int(clamping: counters.appValuesRefused)
        reply.ingestConnections = ingestConnections.open
        reply.ingestConnectionsMax = ingestConnections.limit
        reply.ingestConnectionsRefused = Int(clamping: counters.ingestConnectionsRefused)
        reply.ingestAcceptFailures = Int(clamping: counters.ingestAcceptFailures)
        reply.descriptorLimit = Posix.descriptorLimit()
        reply.badEvidence = Int(clamping: engine.badEvidence)
        reply.diagnosticsPublished = Int(clamping: counters.diagnosticsPublished)
        reply.diagnosticsSuppressed = Int(clamping: counters.diagnosticsSuppressed)
        reply.messagesDropped = Int(clamping: counters.messagesDropped)
        reply.subscriberOverflows = Int(clamping: counters.subscriberOverflows)
        reply.subscriptionsRefused = Int(clamping: counters.subscriptionsRefused)
        reply.curve = configuration.curve != nil
        reply.curveClientsAccepted = Int(clamping: zap?.accepted ?? 0)
        reply.curveClientsRefused = Int(clamping: zap?.refused ?? 0)
        reply.shard = configuration.shard.map { StatusReply.Shard(index: $0.index, count: $0.count, key: $0.key.rawValue) }
        reply.shardBuckets = configuration.shard?.ownedBuckets.count ?? 256
        reply.configReloads = Int(clamping: reloads.done)
        reply.configReloadsRefused = Int(clamping: reloads.refused)
        reply.faults = faultStatus(counters)
        return reply
    }

    /// Brings the Prometheus metrics up to the counters `status` reports.
    func updateMetrics(_ exporter: MetricsExporter, lagSeconds: Double) {
        var totals = counters().prometheusTotals
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
            (rule: rule.id, severity: (profile.rules.first { $0.descriptor.id == rule.id }?.severity ?? rule.severity).rawValue)
        }
        exporter.declare(rules: rules, rejectionReasons: RejectReason.allCases.map(\.rawValue) + [DiagnosticReason.unknownSession.rawValue])
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
            info.languages = rule.languages.declaredName
            return info
        }
        return RulesReply(edition: pipeline.engine.configuration.defaultEdition.rawValue, rules: rules)
    }
}
