/// The `status` reply: the daemon's version, uptime, modules and counters
/// (docs/control-protocol.md, the `status` row).
public struct StatusReply: ControlReplyBody {
    /// A rule module loaded.
    public struct Module: Sendable, Equatable {
        /// Its name.
        public var name: String
        /// Its version.
        public var version: String
        /// How many rules it brings.
        public var rules: Int
        /// The file it was loaded from.
        public var path: String
        /// The rule ABI it was built against, e.g. `1.2` (empty from a daemon before ABI 1.2).
        public var abi: String

        /// A module.
        public init(name: String, version: String, rules: Int, path: String, abi: String = "") {
            self.name = name
            self.version = version
            self.rules = rules
            self.path = path
            self.abi = abi
        }

        init(_ fields: JSONFields) throws(JSONFields.Mismatch) {
            name = try fields.string("name")
            version = try fields.string("version")
            rules = try fields.int("rules")
            path = try fields.string("path")
            abi = try fields.optionalString("abi") ?? ""
        }

        var json: JSONValue {
            .object([
                "name": .string(name), "version": .string(version), "rules": .int(rules), "path": .string(path),
                "abi": .string(abi),
            ])
        }
    }

    /// Two daemons that own some of the same buckets: those buckets' events are judged twice.
    public struct ShardConflict: Sendable, Equatable {
        /// The two daemons, by control endpoint.
        public var daemons: [String]
        /// How many buckets both own.
        public var buckets: Int

        /// A conflict.
        public init(daemons: [String], buckets: Int) {
            self.daemons = daemons
            self.buckets = buckets
        }

        init(_ fields: JSONFields) throws(JSONFields.Mismatch) {
            daemons = try fields.strings("daemons")
            buckets = try fields.int("buckets")
        }

        var json: JSONValue {
            .object(["daemons": .array(daemons.map(JSONValue.string)), "buckets": .int(buckets)])
        }
    }

    /// A sharded daemon's share of the buckets (scale.md).
    public struct Shard: Sendable, Equatable {
        /// Its index, 0…count−1.
        public var index: Int
        /// How many daemons share the buckets.
        public var count: Int
        /// `app` or `session`.
        public var key: String

        /// A shard.
        public init(index: Int, count: Int, key: String) {
            self.index = index
            self.count = count
            self.key = key
        }

        var json: JSONValue {
            .object(["index": .int(index), "count": .int(count), "key": .string(key)])
        }
    }

    /// The daemon's version (``ModalwatchVersion/string``).
    public var version: String = ModalwatchVersion.string
    /// The control protocol's version (``ModalwatchVersion/controlProtocol``).
    public var protocolVersion: Int = ModalwatchVersion.controlProtocol
    /// Seconds since it started (monotonic).
    public var uptimeSeconds: Double = 0
    /// When it started, wall clock, ms since the epoch.
    public var started: Int64 = 0
    /// The default edition in force.
    public var edition: String = ""
    /// The rule modules loaded.
    public var modules: [Module] = []
    /// The modules that failed to load, one line each (name and reason).
    public var moduleFailures: [String] = []
    /// Loaded module files changed on disk since they were loaded, one line each (path and
    /// what to do); the daemon runs the copies it loaded until a restart.
    public var moduleFilesChanged: [String] = []
    /// Non-fatal errors each loaded module reported (ABI 1.2 `module_error`), by module name.
    public var moduleErrors: [String: Int] = [:]
    /// The endpoints bound, by role (`events`, `publish`, `control`, ...).
    public var endpoints: [String: [String]] = [:]
    /// Messages received on the ingest sockets.
    public var messagesReceived: Int = 0
    /// Events received (an NDJSON batch is several).
    public var eventsReceived: Int = 0
    /// Events the engine accepted.
    public var eventsAccepted: Int = 0
    /// Events the rules judged.
    public var eventsJudged: Int = 0
    /// Events rejected, all reasons.
    public var eventsRejected: Int = 0
    /// Events rejected, by reason (`malformed_json`, `missing_field`, `bad_field`, `too_large`).
    public var rejectedByReason: [String: Int] = [:]
    /// Events of a type the engine does not know.
    public var eventsUnknownType: Int = 0
    /// Events per second lately.
    public var eventsPerSecond: Double = 0
    /// Events dropped as duplicates (same `seq`).
    public var duplicates: Int = 0
    /// Events missing by their `seq` gaps.
    public var eventsLost: Int = 0
    /// Events before the first one seen of a session that began without its `session.start` (its `seq` − 1).
    public var eventsMissingBeforeFirst: Int = 0
    /// Events whose `ts` went back (clamped).
    public var outOfOrder: Int = 0
    /// Dismissals of something not presented.
    public var unknownDismissals: Int = 0
    /// Sessions live now.
    public var sessionsLive: Int = 0
    /// Sessions started.
    public var sessionsStarted: Int = 0
    /// Sessions ended by `session.end`.
    public var sessionsEnded: Int = 0
    /// Sessions released after the idle timeout.
    public var sessionsExpired: Int = 0
    /// Sessions evicted at `max_sessions`.
    public var sessionsEvicted: Int = 0
    /// Violations found.
    public var violationsFound: Int = 0
    /// Violations published.
    public var violationsPublished: Int = 0
    /// Violations stored in the history.
    public var violationsStored: Int = 0
    /// Violations judged again after a restore that the history already held: not stored twice.
    public var violationsAlreadyStored: Int = 0
    /// Violations the history could not store.
    public var historyFailures: Int = 0
    /// Violations pruned from the history.
    public var historyPruned: Int = 0
    /// The history file, or nil without a state directory (`null` on the wire).
    public var history: String? = nil
    /// Reports the firing discipline suppressed.
    public var reportsSuppressed: Int = 0
    /// Violations dropped by the rate limit.
    public var violationsRateLimited: Int = 0
    /// Violations dropped by the rate limit, by rule.
    public var violationsRateLimitedByRule: [String: Int] = [:]
    /// Judgements skipped for their language (rules.md, "Languages"), by `rule/language`
    /// (`alert-pronoun/de`; `und` undetermined, `other` past 64 languages).
    public var languagesSkipped: [String: Int] = [:]
    /// Violations dropped by the rate limit, for the (at most ten) apps that had the most dropped.
    public var violationsRateLimitedByApp: [String: Int] = [:]
    /// Apps remembered now (`max_apps` bounds those without a live session).
    public var appsKnown: Int = 0
    /// Apps without a live session forgotten to stay within `max_apps`.
    public var appsEvicted: Int = 0
    /// Times an app-wide counter or firing for a new value was not kept (`max_app_values`).
    public var appValuesRefused: Int = 0
    /// Connections the ingest socket holds now on its TCP endpoints.
    public var ingestConnections: Int = 0
    /// The most it holds at once (`max_ingest_connections`).
    public var ingestConnectionsMax: Int = 0
    /// Connections shut down because the ingest socket held `ingest_connections_max`.
    public var ingestConnectionsRefused: Int = 0
    /// Connections the ingest socket could not accept (e.g. no descriptor left).
    public var ingestAcceptFailures: Int = 0
    /// The process's descriptor limit (soft `RLIMIT_NOFILE`).
    public var descriptorLimit: Int = 0
    /// Reports whose evidence was not a JSON object.
    public var badEvidence: Int = 0
    /// Diagnostics published.
    public var diagnosticsPublished: Int = 0
    /// Diagnostics over the per-app limit, not published.
    public var diagnosticsSuppressed: Int = 0
    /// Messages the publisher dropped.
    public var messagesDropped: Int = 0
    /// Times a subscriber's queue overflowed.
    public var subscriberOverflows: Int = 0
    /// Subscriptions the publish socket refused past a bound (per connection or in all); each
    /// refusing connection was shut down.
    public var subscriptionsRefused: Int = 0
    /// Whether CURVE security is on.
    public var curve: Bool = false
    /// CURVE clients accepted.
    public var curveClientsAccepted: Int = 0
    /// CURVE clients refused.
    public var curveClientsRefused: Int = 0
    /// Configuration reloads done.
    public var configReloads: Int = 0
    /// Configuration reloads refused.
    public var configReloadsRefused: Int = 0
    /// The shard, or nil for a daemon that takes everything.
    public var shard: Shard? = nil
    /// Buckets of the shard topic this daemon owns (256 unsharded).
    public var shardBuckets: Int = 256
    /// Daemons that own some of the same buckets as another, as this daemon sees its
    /// `shard.peers` (or, merged, as the command line sees the daemons it asked).
    public var shardConflicts: [ShardConflict] = []
    /// Buckets no daemon owns, as seen the same way; nil when nothing to compare with.
    public var bucketsUncovered: Int? = nil
    /// The history store's health, refused topics and quarantined rules (`FaultStatus`).
    public var faults = FaultStatus()

    /// A reply of zeros, this build's version and protocol; the daemon fills in the rest.
    public init() {}

    /// Reads a reply's fields; a missing or mistyped one is a mismatch naming it.
    public init(fields: JSONFields) throws(JSONFields.Mismatch) {
        version = try fields.string("version")
        protocolVersion = try fields.int("protocol")
        uptimeSeconds = try fields.double("uptime_s")
        started = try fields.int64("started")
        edition = try fields.string("edition")
        modules = try fields.array("modules") { value throws(JSONFields.Mismatch) in try Module(JSONFields(value, context: "a module")) }
        moduleFailures = try fields.strings("module_failures")
        moduleErrors = fields.optional("module_errors") == nil ? [:] : try fields.counts("module_errors")
        moduleFilesChanged = fields.optional("module_files_changed") == nil ? [] : try fields.strings("module_files_changed")
        endpoints = try Self.endpoints(fields)
        messagesReceived = try fields.int("messages_received")
        eventsReceived = try fields.int("events_received")
        eventsAccepted = try fields.int("events_accepted")
        eventsJudged = try fields.int("events_judged")
        eventsRejected = try fields.int("events_rejected")
        rejectedByReason = try fields.counts("rejected_by_reason")
        eventsUnknownType = try fields.int("events_unknown_type")
        eventsPerSecond = try fields.double("events_per_second")
        duplicates = try fields.int("duplicates")
        eventsLost = try fields.int("events_lost")
        eventsMissingBeforeFirst = try fields.optionalInt("events_missing_before_first") ?? 0
        outOfOrder = try fields.int("out_of_order")
        unknownDismissals = try fields.int("unknown_dismissals")
        sessionsLive = try fields.int("sessions_live")
        sessionsStarted = try fields.int("sessions_started")
        sessionsEnded = try fields.int("sessions_ended")
        sessionsExpired = try fields.int("sessions_expired")
        sessionsEvicted = try fields.int("sessions_evicted")
        violationsFound = try fields.int("violations_found")
        violationsPublished = try fields.int("violations_published")
        violationsStored = try fields.int("violations_stored")
        violationsAlreadyStored = try fields.optionalInt("violations_already_stored") ?? 0
        historyFailures = try fields.int("history_failures")
        historyPruned = try fields.int("history_pruned")
        history = try fields.optionalString("history")
        reportsSuppressed = try fields.int("reports_suppressed")
        violationsRateLimited = try fields.int("violations_rate_limited")
        violationsRateLimitedByRule = try fields.counts("violations_rate_limited_by_rule")
        // Absent from daemons before the per-app bounds: then none.
        violationsRateLimitedByApp = fields.optional("violations_rate_limited_by_app") == nil
            ? [:] : try fields.counts("violations_rate_limited_by_app")
        // Absent from daemons before rule languages: then none.
        languagesSkipped = fields.optional("languages_skipped") == nil ? [:] : try fields.counts("languages_skipped")
        appsKnown = try fields.optionalInt("apps_known") ?? 0
        appsEvicted = try fields.optionalInt("apps_evicted") ?? 0
        appValuesRefused = try fields.optionalInt("app_values_refused") ?? 0
        ingestConnections = try fields.optionalInt("ingest_connections") ?? 0
        ingestConnectionsMax = try fields.optionalInt("ingest_connections_max") ?? 0
        ingestConnectionsRefused = try fields.optionalInt("ingest_connections_refused") ?? 0
        ingestAcceptFailures = try fields.optionalInt("ingest_accept_failures") ?? 0
        descriptorLimit = try fields.optionalInt("descriptor_limit") ?? 0
        badEvidence = try fields.int("bad_evidence")
        diagnosticsPublished = try fields.int("diagnostics_published")
        diagnosticsSuppressed = try fields.int("diagnostics_suppressed")
        messagesDropped = try fields.int("messages_dropped")
        subscriberOverflows = try fields.int("subscriber_overflows")
        subscriptionsRefused = try fields.optionalInt("subscriptions_refused") ?? 0
        curve = try fields.bool("curve")
        curveClientsAccepted = try fields.int("curve_clients_accepted")
        curveClientsRefused = try fields.int("curve_clients_refused")
        configReloads = try fields.int("config_reloads")
        configReloadsRefused = try fields.int("config_reloads_refused")
        // Absent from daemons before sharding: then unsharded.
        if let value = fields.optional("shard"), !value.isNull {
            let shard = try JSONFields(value, context: "\"shard\"")
            self.shard = Shard(index: try shard.int("index"), count: try shard.int("count"), key: try shard.string("key"))
        }
        shardBuckets = try fields.optionalInt("shard_buckets") ?? 256
        if fields.optional("shard_conflicts") != nil {
            shardConflicts = try fields.array("shard_conflicts") { value throws(JSONFields.Mismatch) in
                try ShardConflict(JSONFields(value, context: "a shard conflict"))
            }
        }
        bucketsUncovered = try fields.optionalInt("buckets_uncovered")
        faults = try FaultStatus(fields: fields)
    }

    /// The reply's fields as they go on the wire.
    public var fields: [String: JSONValue] {
        faults.fields.merging(ownFields) { _, own in own }
    }

    private var ownFields: [String: JSONValue] {
        [
            "version": .string(version),
            "protocol": .int(protocolVersion),
            "uptime_s": .number(uptimeSeconds),
            "started": .integer(started),
            "edition": .string(edition),
            "modules": .array(modules.map(\.json)),
            "module_failures": .array(moduleFailures.map(JSONValue.string)),
            "module_errors": .object(moduleErrors.mapValues(JSONValue.int)),
            "module_files_changed": .array(moduleFilesChanged.map(JSONValue.string)),
            "endpoints": .object(endpoints.mapValues { .array($0.map(JSONValue.string)) }),
            "messages_received": .int(messagesReceived),
            "events_received": .int(eventsReceived),
            "events_accepted": .int(eventsAccepted),
            "events_judged": .int(eventsJudged),
            "events_rejected": .int(eventsRejected),
            "rejected_by_reason": .object(rejectedByReason.mapValues(JSONValue.int)),
            "events_unknown_type": .int(eventsUnknownType),
            "events_per_second": .number(eventsPerSecond),
            "duplicates": .int(duplicates),
            "events_lost": .int(eventsLost),
            "events_missing_before_first": .int(eventsMissingBeforeFirst),
            "out_of_order": .int(outOfOrder),
            "unknown_dismissals": .int(unknownDismissals),
            "sessions_live": .int(sessionsLive),
            "sessions_started": .int(sessionsStarted),
            "sessions_ended": .int(sessionsEnded),
            "sessions_expired": .int(sessionsExpired),
            "sessions_evicted": .int(sessionsEvicted),
            "violations_found": .int(violationsFound),
            "violations_published": .int(violationsPublished),
            "violations_stored": .int(violationsStored),
            "violations_already_stored": .int(violationsAlreadyStored),
            "history_failures": .int(historyFailures),
            "history_pruned": .int(historyPruned),
            "history": .nullable(history),
            "reports_suppressed": .int(reportsSuppressed),
            "violations_rate_limited": .int(violationsRateLimited),
            "violations_rate_limited_by_rule": .object(violationsRateLimitedByRule.mapValues(JSONValue.int)),
            "violations_rate_limited_by_app": .object(violationsRateLimitedByApp.mapValues(JSONValue.int)),
            "languages_skipped": .object(languagesSkipped.mapValues(JSONValue.int)),
            "apps_known": .int(appsKnown),
            "apps_evicted": .int(appsEvicted),
            "app_values_refused": .int(appValuesRefused),
            "ingest_connections": .int(ingestConnections),
            "ingest_connections_max": .int(ingestConnectionsMax),
            "ingest_connections_refused": .int(ingestConnectionsRefused),
            "ingest_accept_failures": .int(ingestAcceptFailures),
            "descriptor_limit": .int(descriptorLimit),
            "bad_evidence": .int(badEvidence),
            "diagnostics_published": .int(diagnosticsPublished),
            "diagnostics_suppressed": .int(diagnosticsSuppressed),
            "messages_dropped": .int(messagesDropped),
            "subscriber_overflows": .int(subscriberOverflows),
            "subscriptions_refused": .int(subscriptionsRefused),
            "curve": .bool(curve),
            "curve_clients_accepted": .int(curveClientsAccepted),
            "curve_clients_refused": .int(curveClientsRefused),
            "config_reloads": .int(configReloads),
            "config_reloads_refused": .int(configReloadsRefused),
            "shard": shard?.json ?? .null,
            "shard_buckets": .int(shardBuckets),
            "shard_conflicts": .array(shardConflicts.map(\.json)),
            "buckets_uncovered": bucketsUncovered.map(JSONValue.int) ?? .null,
        ]
    }

    private static func endpoints(_ fields: JSONFields) throws(JSONFields.Mismatch) -> [String: [String]] {
        let object = try fields.object("endpoints", context: "\"endpoints\"")
        var endpoints: [String: [String]] = [:]
        for key in object.fields.keys { endpoints[key] = try object.strings(key) }
        return endpoints
    }
}
