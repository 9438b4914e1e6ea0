/// The part of the `status` reply about faults (docs/RELIABILITY.md): the history store's
/// health and spool, topic frames refused, and rules in quarantine. Its fields sit at the
/// top level of the reply, next to the others; a daemon that predates them leaves them out
/// and they read as their defaults.
public struct FaultStatus: Sendable, Equatable {
    /// One rule in quarantine after a crash or hang in it.
    public struct Quarantined: Sendable, Equatable {
        /// The rule id.
        public var rule: String
        /// Its module.
        public var module: String
        /// `crashed (SIGSEGV)`, `hung (...)`.
        public var fault: String
        /// The event it was judging.
        public var event: String
        /// Since when (ms since the epoch).
        public var since: Int64

        /// A quarantined rule.
        public init(rule: String, module: String, fault: String, event: String, since: Int64) {
            self.rule = rule
            self.module = module
            self.fault = fault
            self.event = event
            self.since = since
        }

        init(_ value: JSONValue) throws(JSONFields.Mismatch) {
            let fields = try JSONFields(value, context: "a quarantined rule")
            rule = try fields.string("rule")
            module = try fields.string("module")
            fault = try fields.string("fault")
            event = try fields.string("event")
            since = try fields.int64("since")
        }

        var json: JSONValue {
            .object(["rule": .string(rule), "module": .string(module), "fault": .string(fault), "event": .string(event), "since": .integer(since)])
        }
    }

    /// Messages whose topic frame was over 1 KiB.
    public var topicsTooLarge: Int = 0
    /// Control requests answered (this one not yet counted).
    public var controlRequests: Int = 0
    /// The longest any control request held the ingest thread (µs), and that request's `cmd`.
    public var controlHoldMaxMicros: Int = 0
    public var controlHoldMaxRequest: String? = nil
    /// The longest hold of each command answered so far (µs).
    public var controlHoldMaxByRequest: [String: Int] = [:]
    /// The same as CPU time of the ingest thread (µs): the hold less the time the system ran other
    /// threads meanwhile, which on a loaded machine is most of a long wall-clock hold.
    public var controlHoldCPUMaxMicros: Int = 0
    /// The longest CPU time of each command so far (µs).
    public var controlHoldCPUMaxByRequest: [String: Int] = [:]
    /// `ok`, `failing` or `none` (no history kept).
    public var historyState: String = "none"
    /// Whether the history store takes writes.
    public var historyHealthy: Bool = false
    /// The last write error, one line.
    public var historyError: String? = nil
    /// Times the store went from healthy to failing.
    public var historyOutages: Int = 0
    /// Violations waiting in the spool.
    public var violationsSpooled: Int = 0
    /// Bytes of the spool in memory, and in its spill file.
    public var spoolMemoryBytes: Int = 0
    public var spoolFileBytes: Int = 0
    /// Violations written from the spool once the store took writes again.
    public var violationsRecovered: Int = 0
    /// Violations lost past the spool's bound.
    public var violationsUnstored: Int = 0
    /// Damaged records of the spool's spill file, skipped (each also in `violationsUnstored`).
    public var spoolRecordsDamaged: Int = 0
    /// The history's WAL file, bytes (bounded by `history.wal_limit`).
    public var historyWALBytes: Int = 0
    /// Violations and diagnostics the ingest thread could not hand over: the publishing thread
    /// was more than the hand-over's bound behind.
    public var handoverDropped: Int = 0
    /// Rules in quarantine.
    public var rulesQuarantined: [Quarantined] = []
    /// Connections the publish and control sockets shut down past their limits, by socket
    /// (`publish`, `control`; the ingest socket's are `ingest_connections_refused`).
    public var connectionsRefusedBySocket: [String: Int] = [:]
    /// Session checkpoints made whole since the start, and walks whose file could not be written.
    public var checkpointsWritten: Int = 0
    public var checkpointFailures: Int = 0
    /// Seconds since the newest whole checkpoint's walk began (the one restored at the start until
    /// this daemon writes one); nil without one (`null`).
    public var checkpointAgeSeconds: Double? = nil
    /// The newest checkpoint this daemon wrote: its sessions, its bytes, and its walk's time from
    /// start to rename (ms).
    public var checkpointSessions: Int = 0
    public var checkpointBytes: Int = 0
    public var checkpointWalkMs: Int = 0

    /// Nothing to report.
    public init() {}

    init(fields: JSONFields) throws(JSONFields.Mismatch) {
        topicsTooLarge = try fields.optionalInt("topics_too_large") ?? 0
        controlRequests = try fields.optionalInt("control_requests") ?? 0
        controlHoldMaxMicros = try fields.optionalInt("control_hold_max_us") ?? 0
        controlHoldMaxRequest = try fields.optionalString("control_hold_max_request")
        if fields.optional("control_hold_us_by_request") != nil {
            controlHoldMaxByRequest = try fields.counts("control_hold_us_by_request")
        }
        controlHoldCPUMaxMicros = try fields.optionalInt("control_hold_cpu_max_us") ?? 0
        if fields.optional("control_hold_cpu_us_by_request") != nil {
            controlHoldCPUMaxByRequest = try fields.counts("control_hold_cpu_us_by_request")
        }
        historyState = try fields.optionalString("history_state") ?? "none"
        historyHealthy = try fields.optionalBool("history_healthy") ?? false
        historyError = try fields.optionalString("history_error")
        historyOutages = try fields.optionalInt("history_outages") ?? 0
        violationsSpooled = try fields.optionalInt("violations_spooled") ?? 0
        spoolMemoryBytes = try fields.optionalInt("spool_memory_bytes") ?? 0
        spoolFileBytes = try fields.optionalInt("spool_file_bytes") ?? 0
        violationsRecovered = try fields.optionalInt("violations_recovered") ?? 0
        violationsUnstored = try fields.optionalInt("violations_unstored") ?? 0
        spoolRecordsDamaged = try fields.optionalInt("spool_records_damaged") ?? 0
        historyWALBytes = try fields.optionalInt("history_wal_bytes") ?? 0
        handoverDropped = try fields.optionalInt("handover_dropped") ?? 0
        if fields.optional("connections_refused_by_socket") != nil {
            connectionsRefusedBySocket = try fields.counts("connections_refused_by_socket")
        }
        checkpointsWritten = try fields.optionalInt("checkpoints_written") ?? 0
        checkpointFailures = try fields.optionalInt("checkpoint_failures") ?? 0
        checkpointAgeSeconds = try fields.optionalDouble("checkpoint_age_s")
        checkpointSessions = try fields.optionalInt("checkpoint_sessions") ?? 0
        checkpointBytes = try fields.optionalInt("checkpoint_bytes") ?? 0
        checkpointWalkMs = try fields.optionalInt("checkpoint_walk_ms") ?? 0
        if fields.optional("rules_quarantined") != nil {
            rulesQuarantined = try fields.array("rules_quarantined") { value throws(JSONFields.Mismatch) in try Quarantined(value) }
        }
    }

    var fields: [String: JSONValue] {
        [
            "topics_too_large": .int(topicsTooLarge),
            "control_requests": .int(controlRequests),
            "control_hold_max_us": .int(controlHoldMaxMicros),
            "control_hold_max_request": .nullable(controlHoldMaxRequest),
            "control_hold_us_by_request": .object(controlHoldMaxByRequest.mapValues(JSONValue.int)),
            "control_hold_cpu_max_us": .int(controlHoldCPUMaxMicros),
            "control_hold_cpu_us_by_request": .object(controlHoldCPUMaxByRequest.mapValues(JSONValue.int)),
            "history_state": .string(historyState),
            "history_healthy": .bool(historyHealthy),
            "history_error": .nullable(historyError),
            "history_outages": .int(historyOutages),
            "violations_spooled": .int(violationsSpooled),
            "spool_memory_bytes": .int(spoolMemoryBytes),
            "spool_file_bytes": .int(spoolFileBytes),
            "violations_recovered": .int(violationsRecovered),
            "violations_unstored": .int(violationsUnstored),
            "spool_records_damaged": .int(spoolRecordsDamaged),
            "history_wal_bytes": .int(historyWALBytes),
            "handover_dropped": .int(handoverDropped),
            "connections_refused_by_socket": .object(connectionsRefusedBySocket.mapValues(JSONValue.int)),
            "checkpoints_written": .int(checkpointsWritten),
            "checkpoint_failures": .int(checkpointFailures),
            "checkpoint_age_s": checkpointAgeSeconds.map(JSONValue.number) ?? .null,
            "checkpoint_sessions": .int(checkpointSessions),
            "checkpoint_bytes": .int(checkpointBytes),
            "checkpoint_walk_ms": .int(checkpointWalkMs),
            "rules_quarantined": .array(rulesQuarantined.map(\.json)),
        ]
    }
}
