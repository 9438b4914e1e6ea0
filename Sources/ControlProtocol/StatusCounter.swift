/// Every plain integer counter of the `status` reply (docs/control-protocol.md), named by its
/// JSON key: the one place each is named. The reply's encoding and decoding
/// (``StatusReply/counters``), the merge of several daemons' replies (``merge``) and the
/// Prometheus family of each the metrics export (``metricName``, ``metricHelp``) all come from here.
public enum StatusCounter: String, CaseIterable, Sendable {
    /// Messages received on the ingest sockets.
    case messagesReceived = "messages_received"
    /// Events received (an NDJSON batch is several).
    case eventsReceived = "events_received"
    /// Events the engine accepted.
    case eventsAccepted = "events_accepted"
    /// Events the rules judged.
    case eventsJudged = "events_judged"
    /// Events rejected, all reasons.
    case eventsRejected = "events_rejected"
    /// Events of a type the engine does not know.
    case eventsUnknownType = "events_unknown_type"
    /// Events dropped as duplicates (same `seq`).
    case duplicates = "duplicates"
    /// Events missing by their `seq` gaps.
    case eventsLost = "events_lost"
    /// Events before the first one seen of a session that began without its `session.start` (its `seq` − 1).
    case eventsMissingBeforeFirst = "events_missing_before_first"
    /// Events whose `ts` went back (clamped).
    case outOfOrder = "out_of_order"
    /// Dismissals of something not presented.
    case unknownDismissals = "unknown_dismissals"
    /// Sessions live now.
    case sessionsLive = "sessions_live"
    /// Sessions started.
    case sessionsStarted = "sessions_started"
    /// Sessions ended by `session.end`.
    case sessionsEnded = "sessions_ended"
    /// Sessions released after the idle timeout.
    case sessionsExpired = "sessions_expired"
    /// Sessions evicted at `max_sessions`.
    case sessionsEvicted = "sessions_evicted"
    /// Violations found.
    case violationsFound = "violations_found"
    /// Violations published.
    case violationsPublished = "violations_published"
    /// Violations stored in the history.
    case violationsStored = "violations_stored"
    /// Violations judged again after a restore that the history already held: not stored twice.
    case violationsAlreadyStored = "violations_already_stored"
    /// Violations the history could not store.
    case historyFailures = "history_failures"
    /// Violations pruned from the history.
    case historyPruned = "history_pruned"
    /// Reports the firing discipline suppressed.
    case reportsSuppressed = "reports_suppressed"
    /// Violations dropped by the rate limit.
    case violationsRateLimited = "violations_rate_limited"
    /// Apps remembered now (`max_apps` bounds those without a live session).
    case appsKnown = "apps_known"
    /// Apps without a live session forgotten to stay within `max_apps`.
    case appsEvicted = "apps_evicted"
    /// Times an app-wide counter or firing for a new value was not kept (`max_app_values`).
    case appValuesRefused = "app_values_refused"
    /// Connections the ingest socket holds now on its TCP endpoints.
    case ingestConnections = "ingest_connections"
    /// The most it holds at once (`max_ingest_connections`).
    case ingestConnectionsMax = "ingest_connections_max"
    /// Connections shut down because the ingest socket held `ingest_connections_max`.
    case ingestConnectionsRefused = "ingest_connections_refused"
    /// Connections the ingest socket could not accept (e.g. no descriptor left).
    case ingestAcceptFailures = "ingest_accept_failures"
    /// The process's descriptor limit (soft `RLIMIT_NOFILE`).
    case descriptorLimit = "descriptor_limit"
    /// Reports whose evidence was not a JSON object.
    case badEvidence = "bad_evidence"
    /// Diagnostics published.
    case diagnosticsPublished = "diagnostics_published"
    /// Diagnostics over the per-app limit, not published.
    case diagnosticsSuppressed = "diagnostics_suppressed"
    /// Messages the publisher dropped.
    case messagesDropped = "messages_dropped"
    /// Times a subscriber's queue overflowed.
    case subscriberOverflows = "subscriber_overflows"
    /// Subscriptions the publish socket refused past a bound (per connection or in all); each
    /// refusing connection was shut down.
    case subscriptionsRefused = "subscriptions_refused"
    /// CURVE clients accepted.
    case curveClientsAccepted = "curve_clients_accepted"
    /// CURVE clients refused.
    case curveClientsRefused = "curve_clients_refused"
    /// Configuration reloads done.
    case configReloads = "config_reloads"
    /// Configuration reloads refused.
    case configReloadsRefused = "config_reloads_refused"
    /// Messages whose topic frame was over 1 KiB (a fault field, docs/RELIABILITY.md).
    case topicsTooLarge = "topics_too_large"
    /// Control requests answered (the one being answered not yet counted).
    case controlRequests = "control_requests"
    /// The longest CPU time of the ingest thread any control request held it (µs): the hold less
    /// the time the system ran other threads meanwhile.
    case controlHoldCPUMaxMicros = "control_hold_cpu_max_us"
    /// Times the history store went from healthy to failing.
    case historyOutages = "history_outages"
    /// Violations waiting in the spool.
    case violationsSpooled = "violations_spooled"
    /// Bytes of the spool in memory.
    case spoolMemoryBytes = "spool_memory_bytes"
    /// Bytes of the spool's spill file.
    case spoolFileBytes = "spool_file_bytes"
    /// Violations written from the spool once the store took writes again.
    case violationsRecovered = "violations_recovered"
    /// Violations lost past the spool's bound.
    case violationsUnstored = "violations_unstored"
    /// Damaged records of the spool's spill file, skipped (each also in ``violationsUnstored``).
    case spoolRecordsDamaged = "spool_records_damaged"
    /// The history's WAL file, bytes (bounded by `history.wal_limit`).
    case historyWALBytes = "history_wal_bytes"
    /// Violations and diagnostics the ingest thread could not hand over: the publishing thread
    /// was more than the hand-over's bound behind.
    case handoverDropped = "handover_dropped"
    /// Session checkpoints made whole since the start.
    case checkpointsWritten = "checkpoints_written"
    /// Checkpoint walks whose file could not be written.
    case checkpointFailures = "checkpoint_failures"
    /// Sessions in the newest checkpoint this daemon wrote.
    case checkpointSessions = "checkpoint_sessions"
    /// Bytes of the newest checkpoint this daemon wrote.
    case checkpointBytes = "checkpoint_bytes"
    /// The newest checkpoint's walk, start to rename (ms).
    case checkpointWalkMs = "checkpoint_walk_ms"

    /// How `status` over several daemons combines their values of a counter.
    public enum Merge: Sendable {
        /// The daemons' values added.
        case sum
        /// The largest of the daemons' values.
        case max
    }

    /// How `status` over several daemons combines this counter: summed, but for the longest
    /// times, which are the longest of any daemon.
    public var merge: Merge {
        switch self {
        case .controlHoldCPUMaxMicros, .checkpointWalkMs: .max
        default: .sum
        }
    }

    /// Whether a reply may leave the counter out (a daemon from before it): it then reads as 0.
    /// A reply without one of the others is a mismatch.
    public var mayBeAbsent: Bool {
        switch self {
        case .messagesReceived, .eventsReceived, .eventsAccepted, .eventsJudged, .eventsRejected, .eventsUnknownType,
            .duplicates, .eventsLost, .outOfOrder, .unknownDismissals, .sessionsLive, .sessionsStarted, .sessionsEnded,
            .sessionsExpired, .sessionsEvicted, .violationsFound, .violationsPublished, .violationsStored,
            .historyFailures, .historyPruned, .reportsSuppressed, .violationsRateLimited, .badEvidence,
            .diagnosticsPublished, .diagnosticsSuppressed, .messagesDropped, .subscriberOverflows,
            .curveClientsAccepted, .curveClientsRefused, .configReloads, .configReloadsRefused:
            false
        case .eventsMissingBeforeFirst, .violationsAlreadyStored, .appsKnown, .appsEvicted, .appValuesRefused,
            .ingestConnections, .ingestConnectionsMax, .ingestConnectionsRefused, .ingestAcceptFailures,
            .descriptorLimit, .subscriptionsRefused, .topicsTooLarge, .controlRequests, .controlHoldCPUMaxMicros,
            .historyOutages, .violationsSpooled, .spoolMemoryBytes, .spoolFileBytes, .violationsRecovered,
            .violationsUnstored, .spoolRecordsDamaged, .historyWALBytes, .handoverDropped, .checkpointsWritten,
            .checkpointFailures, .checkpointSessions, .checkpointBytes, .checkpointWalkMs:
            true
        }
    }

    /// The name of the Prometheus counter family the metrics export the counter as,
    /// `modalwatch_<key>_total`; nil for a counter the metrics do not export.
    public var metricName: String? {
        metricHelp == nil ? nil : "modalwatch_\(rawValue)_total"
    }

    /// The sentence of the `# HELP` line of the counter's Prometheus family; nil for a counter
    /// the metrics do not export.
    public var metricHelp: String? {
        switch self {
        case .messagesReceived: "ZeroMQ messages received on the ingest socket."
        case .eventsReceived: "Events received, accepted or rejected; an NDJSON batch counts each of its events."
        case .eventsJudged: "Events the rules judged."
        case .violationsPublished: "Violations published on the publish socket."
        case .violationsStored: "Violations written to the history."
        case .violationsAlreadyStored:
            "Violations judged again after a restore that the history already held: not stored twice."
        case .diagnosticsPublished: "Diagnostics published on the publish socket."
        case .diagnosticsSuppressed: "Diagnostics over the per-app limit, not published."
        case .messagesDropped: "Messages the publisher dropped."
        case .subscriberOverflows: "Times a subscriber's queue overflowed."
        case .subscriptionsRefused:
            "Subscriptions the publish socket refused past a bound; the subscriber's connection was shut down."
        case .sessionsEvicted: "Sessions evicted to stay within max_sessions."
        case .appsEvicted: "Apps without a live session forgotten to stay within max_apps."
        case .eventsLost: "Events missing by the gaps in their sessions' seq."
        case .eventsMissingBeforeFirst:
            "Events before the first one seen of a session that began without its session.start."
        case .appValuesRefused: "Times an app-wide counter or firing for a new value was not kept (max_app_values)."
        case .ingestConnectionsRefused: "Ingest connections shut down because the ingest socket held its maximum."
        case .ingestAcceptFailures: "Ingest connections that could not be accepted, e.g. for want of a descriptor."
        case .violationsUnstored: "Violations lost because the history could not store them and the spool was full."
        case .violationsRecovered: "Violations written from the spool once the history took writes again."
        case .historyOutages: "Times the history went from taking writes to failing."
        case .checkpointsWritten: "Session checkpoints written whole."
        case .checkpointFailures: "Session checkpoints that could not be written (the previous one stays in force)."
        case .spoolRecordsDamaged: "Damaged records of the spool's spill file, skipped."
        case .handoverDropped:
            "Violations and diagnostics the ingest thread could not hand over to the publishing thread."
        case .topicsTooLarge: "Messages refused because their topic frame was over its limit."
        default: nil
        }
    }
}
