public import SessionEngine
public import ShardRouting

/// Everything the configuration file sets (interfaces.md, "Configuration file").
public struct DaemonConfiguration: Sendable {
    /// Where ingest `SUB` binds.
    public var events: [String] = [DefaultEndpoints.events]
    /// Where ingest `SUB` also connects.
    public var eventsConnect: [String] = []
    /// Topic prefixes to subscribe to (unsharded daemons; see ``ingestSubscriptions``).
    public var subscribe: [String] = [""]
    /// This daemon's share of the shard buckets (scale.md), or nil to take everything.
    public var shard: ShardAssignment?
    /// The control endpoints of the other daemons of the deployment (`shard.peers`): the control
    /// thread asks each for its `status` and reports buckets owned twice or by none. Read at start.
    public var shardPeers: [String] = []
    /// Where the violations `PUB` binds.
    public var publish = DefaultEndpoints.publish
    /// Where the control `REP` binds.
    public var control = DefaultEndpoints.control
    /// `host:port` for Prometheus metrics, or nil.
    public var metrics: String?
    /// Whether `metrics` may be a non-loopback address (`metrics_allow_remote`).
    public var metricsAllowRemote = false
    /// Extra rule module folders.
    public var rulesDirs: [String] = []
    /// Each rule module's settings (`modules:`), for the `on_init` of ABI 1.2 modules;
    /// read when the modules load (a reload does not re-initialize them).
    public var moduleSettings: [String: [(key: String, value: String)]] = [:]
    /// Where the history store and session snapshots live; nil keeps no history.
    public var stateDirectory: String?
    /// `history.postgresql` (with `history.store: postgresql`): the libpq connection string of the
    /// database every daemon writes its history to; nil keeps it in SQLite in the state directory.
    public var historyPostgreSQL: String?
    /// History retention by age (ms); nil keeps everything.
    public var historyMaxAgeMs: Int64? = 30 * 24 * 3_600_000
    /// History retention by rows; nil keeps everything.
    public var historyMaxRows: Int? = 1_000_000
    /// How often the retention runs (ms). Not a configuration key: a test that waits for the
    /// retention sets it short.
    public var historyPruneIntervalMs: Int64 = 5_000
    /// The store-failure spool (violations.md): bytes of unstored violations kept in memory,
    /// then in a spill file in the state directory, before they are counted as lost.
    public var spoolMemoryBytes = 64 << 20
    public var spoolFileBytes = 1 << 30
    /// The history's WAL, in bytes, past which the store counts as failing (a reader that holds a
    /// read transaction keeps the checkpoints from starting the WAL over) and violations are spooled.
    public var historyWALLimitBytes = 256 << 20
    /// `history.group`: the group that may read the state directory (02750, files 0640); nil
    /// keeps it to the daemon's user (0700, files 0600).
    public var stateGroup: String?
    /// The longest one rule call may run before the watchdog ends the process (nil: no watchdog).
    public var ruleCallTimeoutMs: Int64? = 1000
    /// The longest one rule module may take to load in the probe child (`module_load_timeout`);
    /// read before the modules load (`ConfigLoader.peekModuleLoadTimeout`).
    public var moduleLoadTimeoutMs: Int64 = 5000
    /// Whether a rule that crashed or hung is quarantined after the restart (`quarantine`).
    public var quarantineEnabled = true
    /// How long a graceful stop may take before the process ends all the same (`stop_timeout`);
    /// below the unit's TimeoutStopSec (30 s).
    public var stopTimeoutMs: Int64 = 20_000
    /// How often the live sessions' state is checkpointed to the state directory while the daemon
    /// runs (`checkpoint_interval`): after any end, a start restores the newest checkpoint.
    public var checkpointIntervalMs: Int64 = 5_000
    /// The most connections the ingest socket holds at once on its TCP endpoints; nil: half
    /// of what `RLIMIT_NOFILE` leaves past a reserve (docs/spec-decisions.md).
    public var maxIngestConnections: Int?
    /// CURVE encryption of ingest and publish, or nil for none.
    public var curve: CurveConfiguration?
    /// Whether state-changing control commands (`reload`) are accepted on a `tcp://` control endpoint.
    public var controlAllowReloadOverTCP = false
    /// Log level name (`trace` ... `critical`).
    public var logLevel = "info"
    /// The engine's part: edition, rule and app overrides, idle timeout, max sessions.
    public var engine = EngineConfiguration()

    /// The built-in defaults.
    public init() {}
}
