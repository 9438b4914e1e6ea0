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
    /// Seconds since the ingest loop published the counts of this reply (monotonic): at most one
    /// tick (0.2 s) while the loop runs; more when its thread is held, by a rule that hangs, say.
    public var countsAgeSeconds: Double = 0
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
    /// The plain integer counters, the fault fields' among them (``StatusCounter``).
    public var counters = StatusCounters<Int>()
    /// Events rejected, by reason (`malformed_json`, `missing_field`, `bad_field`, `too_large`).
    public var rejectedByReason: [String: Int] = [:]
    /// Events per second lately.
    public var eventsPerSecond: Double = 0
    /// The history file, or nil without a state directory (`null` on the wire).
    public var history: String? = nil
    /// Violations dropped by the rate limit, by rule.
    public var violationsRateLimitedByRule: [String: Int] = [:]
    /// Judgements skipped for their language (rules.md, "Languages"), by `rule/language`
    /// (`alert-pronoun/de`; `und` undetermined, `other` past 64 languages).
    public var languagesSkipped: [String: Int] = [:]
    /// Violations dropped by the rate limit, for the (at most ten) apps that had the most dropped.
    public var violationsRateLimitedByApp: [String: Int] = [:]
    /// Whether CURVE security is on.
    public var curve: Bool = false
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
        countsAgeSeconds = fields.optional("counts_age_s") == nil ? 0 : try fields.double("counts_age_s")
        started = try fields.int64("started")
        edition = try fields.string("edition")
        modules = try fields.array("modules") { value throws(JSONFields.Mismatch) in
            try Module(JSONFields(value, context: "a module"))
        }
        moduleFailures = try fields.strings("module_failures")
        moduleErrors = fields.optional("module_errors") == nil ? [:] : try fields.counts("module_errors")
        moduleFilesChanged =
            fields.optional("module_files_changed") == nil ? [] : try fields.strings("module_files_changed")
        endpoints = try Self.endpoints(fields)
        for counter in StatusCounter.allCases {
            counters[counter] =
                try counter.mayBeAbsent ? fields.optionalInt(counter.rawValue) ?? 0 : fields.int(counter.rawValue)
        }
        rejectedByReason = try fields.counts("rejected_by_reason")
        eventsPerSecond = try fields.double("events_per_second")
        history = try fields.optionalString("history")
        violationsRateLimitedByRule = try fields.counts("violations_rate_limited_by_rule")
        // Absent from daemons before the per-app bounds: then none.
        violationsRateLimitedByApp =
            fields.optional("violations_rate_limited_by_app") == nil
            ? [:] : try fields.counts("violations_rate_limited_by_app")
        // Absent from daemons before rule languages: then none.
        languagesSkipped = fields.optional("languages_skipped") == nil ? [:] : try fields.counts("languages_skipped")
        curve = try fields.bool("curve")
        // Absent from daemons before sharding: then unsharded.
        if let value = fields.optional("shard"), !value.isNull {
            let shard = try JSONFields(value, context: "\"shard\"")
            self.shard = Shard(
                index: try shard.int("index"),
                count: try shard.int("count"),
                key: try shard.string("key")
            )
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

    /// The reply's fields but for the fault fields: the named ones and every counter, by its key.
    private var ownFields: [String: JSONValue] {
        var fields = namedFields
        for counter in StatusCounter.allCases { fields[counter.rawValue] = .int(counters[counter]) }
        return fields
    }

    /// The fields besides ``counters``.
    private var namedFields: [String: JSONValue] {
        [
            "version": .string(version),
            "protocol": .int(protocolVersion),
            "uptime_s": .number(uptimeSeconds),
            "counts_age_s": .number(countsAgeSeconds),
            "started": .integer(started),
            "edition": .string(edition),
            "modules": .array(modules.map(\.json)),
            "module_failures": .array(moduleFailures.map(JSONValue.string)),
            "module_errors": .object(moduleErrors.mapValues(JSONValue.int)),
            "module_files_changed": .array(moduleFilesChanged.map(JSONValue.string)),
            "endpoints": .object(endpoints.mapValues { .array($0.map(JSONValue.string)) }),
            "rejected_by_reason": .object(rejectedByReason.mapValues(JSONValue.int)),
            "events_per_second": .number(eventsPerSecond),
            "history": .nullable(history),
            "violations_rate_limited_by_rule": .object(violationsRateLimitedByRule.mapValues(JSONValue.int)),
            "violations_rate_limited_by_app": .object(violationsRateLimitedByApp.mapValues(JSONValue.int)),
            "languages_skipped": .object(languagesSkipped.mapValues(JSONValue.int)),
            "curve": .bool(curve),
            "shard": shard?.json ?? .null,
            "shard_buckets": .int(shardBuckets),
            "shard_conflicts": .array(shardConflicts.map(\.json)),
            "buckets_uncovered": bucketsUncovered.map(JSONValue.int) ?? .null,
        ]
    }

    /// The counter `counter` (``counters``).
    public subscript(counter: StatusCounter) -> Int {
        get { counters[counter] }
        set { counters[counter] = newValue }
    }

    private static func endpoints(_ fields: JSONFields) throws(JSONFields.Mismatch) -> [String: [String]] {
        let object = try fields.object("endpoints", context: "\"endpoints\"")
        var endpoints: [String: [String]] = [:]
        for key in object.fields.keys { endpoints[key] = try object.strings(key) }
        return endpoints
    }
}
