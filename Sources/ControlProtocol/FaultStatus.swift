/// The part of the `status` reply about faults (docs/RELIABILITY.md) that is more than a plain
/// counter: the history store's state and last error, the longest control holds, and rules in
/// quarantine; its plain counters (spool, topic frames refused, checkpoints) are
/// ``StatusCounter``s in ``StatusReply/counters``. Its fields sit at the top level of the
/// reply, next to the others; a daemon that predates them leaves them out and they read as
/// their defaults.
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
            .object([
                "rule": .string(rule), "module": .string(module), "fault": .string(fault), "event": .string(event),
                "since": .integer(since),
            ])
        }
    }

    /// The longest any control request held the ingest thread (µs), and that request's `cmd`.
    public var controlHoldMaxMicros: Int = 0
    public var controlHoldMaxRequest: String? = nil
    /// The longest hold of each command answered so far (µs).
    public var controlHoldMaxByRequest: [String: Int] = [:]
    /// The longest CPU time of the ingest thread each command held it so far (µs).
    public var controlHoldCPUMaxByRequest: [String: Int] = [:]
    /// `ok`, `failing` or `none` (no history kept).
    public var historyState: String = "none"
    /// Whether the history store takes writes.
    public var historyHealthy: Bool = false
    /// The last write error, one line.
    public var historyError: String? = nil
    /// Rules in quarantine.
    public var rulesQuarantined: [Quarantined] = []
    /// Connections the publish and control sockets shut down past their limits, by socket
    /// (`publish`, `control`; the ingest socket's are `ingest_connections_refused`).
    public var connectionsRefusedBySocket: [String: Int] = [:]
    /// Seconds since the newest whole checkpoint's walk began (the one restored at the start until
    /// this daemon writes one); nil without one (`null`).
    public var checkpointAgeSeconds: Double? = nil

    /// Nothing to report.
    public init() {}

    init(fields: JSONFields) throws(JSONFields.Mismatch) {
        controlHoldMaxMicros = try fields.optionalInt("control_hold_max_us") ?? 0
        controlHoldMaxRequest = try fields.optionalString("control_hold_max_request")
        if fields.optional("control_hold_us_by_request") != nil {
            controlHoldMaxByRequest = try fields.counts("control_hold_us_by_request")
        }
        if fields.optional("control_hold_cpu_us_by_request") != nil {
            controlHoldCPUMaxByRequest = try fields.counts("control_hold_cpu_us_by_request")
        }
        historyState = try fields.optionalString("history_state") ?? "none"
        historyHealthy = try fields.optionalBool("history_healthy") ?? false
        historyError = try fields.optionalString("history_error")
        if fields.optional("connections_refused_by_socket") != nil {
            connectionsRefusedBySocket = try fields.counts("connections_refused_by_socket")
        }
        checkpointAgeSeconds = try fields.optionalDouble("checkpoint_age_s")
        if fields.optional("rules_quarantined") != nil {
            rulesQuarantined = try fields.array("rules_quarantined") { value throws(JSONFields.Mismatch) in
                try Quarantined(value)
            }
        }
    }

    var fields: [String: JSONValue] {
        [
            "control_hold_max_us": .int(controlHoldMaxMicros),
            "control_hold_max_request": .nullable(controlHoldMaxRequest),
            "control_hold_us_by_request": .object(controlHoldMaxByRequest.mapValues(JSONValue.int)),
            "control_hold_cpu_us_by_request": .object(controlHoldCPUMaxByRequest.mapValues(JSONValue.int)),
            "history_state": .string(historyState),
            "history_healthy": .bool(historyHealthy),
            "history_error": .nullable(historyError),
            "connections_refused_by_socket": .object(connectionsRefusedBySocket.mapValues(JSONValue.int)),
            "checkpoint_age_s": checkpointAgeSeconds.map(JSONValue.number) ?? .null,
            "rules_quarantined": .array(rulesQuarantined.map(\.json)),
        ]
    }
}
