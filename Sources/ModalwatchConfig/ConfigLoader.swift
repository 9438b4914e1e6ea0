import Foundation
public import RuleHost
import SessionEngine
import ShardRouting
import Yams

/// Reads the YAML configuration and checks it against the loaded rules. Every
/// error names the file, the line and the key; all of them are reported at once.
public struct ConfigLoader: Sendable {
    /// The default config path of interfaces.md.
    public static let defaultPath = "/etc/modalwatch/modalwatchd.yaml"

    private let catalog: RuleCatalog

    /// A loader that checks rule ids and parameters against `catalog`.
    public init(catalog: RuleCatalog) {
        self.catalog = catalog
    }

    /// The `rules_dirs` a config file names, read before the modules load (the full
    /// check, which needs the modules, comes after). Problems are left to `load`.
    public static func peekRulesDirectories(path: String) -> [String] {
        rulesDirectories(in: try? ConfigSources(path: path))
    }

    /// The `rules_dirs` of configuration sources already read.
    static func rulesDirectories(in sources: ConfigSources?) -> [String] {
        guard let dirs = sources?.root?.mapping?["rules_dirs"] else { return [] }
        if let one = dirs.scalar { return one.string.isEmpty ? [] : [one.string] }
        return (dirs.sequence ?? []).compactMap { $0.scalar?.string }
    }

    /// A string a config file gives `key` at its top level (e.g. `control`, `publish`),
    /// read without the modules: how the command line finds the daemon. `nil` when the
    /// file does not read, the key is absent, null or empty.
    public static func peekString(_ key: String, path: String) -> String? {
        guard let root = (try? ConfigSources(path: path))?.root,
            let value = root.mapping?[key]?.scalar?.string,
            !value.isEmpty, value != "null", value != "~"
        else { return nil }
        return value
    }

    /// The milliseconds `module_load_timeout` may be.
    static let moduleLoadTimeoutRange: ClosedRange<Int64> = 100...600_000

    /// The `module_load_timeout` a config file sets, read before the modules load; nil when it
    /// sets none or a bad one (`load` reports that).
    public static func peekModuleLoadTimeout(path: String) -> Int64? {
        moduleLoadTimeout(in: try? ConfigSources(path: path))
    }

    /// The `module_load_timeout` of configuration sources already read.
    static func moduleLoadTimeout(in sources: ConfigSources?) -> Int64? {
        guard let value = sources?.root?.mapping?["module_load_timeout"]?.scalar,
            let milliseconds = DurationParser.milliseconds(value.string),
            moduleLoadTimeoutRange.contains(milliseconds)
        else { return nil }
        return milliseconds
    }

    /// Reads and checks the file at `path` and its drop-ins (`ConfigSources`).
    public func load(path: String) throws(ConfigErrors) -> DaemonConfiguration {
        try read(ConfigSources(path: path))
    }

    /// Checks a configuration file read once (`ConfigFile`): the same as `load(path:)` on its path.
    public func load(_ file: ConfigFile) throws(ConfigErrors) -> DaemonConfiguration {
        try read(file.sources.get())
    }

    /// Checks configuration text; `file` names it in errors.
    public func parse(_ text: String, file: String) throws(ConfigErrors) -> DaemonConfiguration {
        try read(ConfigSources(text: text, file: file))
    }

    /// The files `load(path:)` reads: `path`, then its drop-ins in name order.
    public static func files(path: String) -> [String] {
        [path] + ConfigSources.dropIns(of: path)
    }

    private func read(_ sources: ConfigSources) throws(ConfigErrors) -> DaemonConfiguration {
        var reader = Reader(sources: sources, catalog: catalog)
        var configuration = DaemonConfiguration()
        if let root = sources.root { reader.readTop(root, into: &configuration) }
        if !reader.errors.isEmpty { throw ConfigErrors(reader.errors) }
        return configuration
    }
}

/// Walks the YAML tree, collecting errors.
private struct Reader {
    let sources: ConfigSources
    let catalog: RuleCatalog
    var errors: [ConfigError] = []

    init(sources: ConfigSources, catalog: RuleCatalog) {
        self.sources = sources
        self.catalog = catalog
    }

    /// A mapping key as errors name it: its text, or what it is when it is not a plain string.
    func keyName(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar): return scalar.string.isEmpty ? "(an empty key)" : scalar.string
        case .sequence: return "(a list)"
        case .mapping: return "(a mapping)"
        default: return "(an alias)"
        }
    }

    mutating func fail(_ node: Node?, _ key: String, _ message: String) {
        errors.append(ConfigError(file: sources.file(of: key), line: node?.mark?.line ?? 0, key: key, message: message))
    }

    mutating func readTop(_ root: Node, into configuration: inout DaemonConfiguration) {
        guard let mapping = root.mapping else {
            if root.null == nil {
                fail(root, "", "the top level must be a mapping of keys (edition, events, rules, ...)")
            }
            return
        }
        for (keyNode, value) in mapping {
            let key = keyName(keyNode)
            if let read = Self.topLevelReaders[key] {
                read(&self, value, key, &configuration)
            } else {
                fail(keyNode, key, Self.unknownTopLevelKey)
            }
        }
    }

    mutating func readRuleOverrides(_ node: Node, _ path: String) -> [String: EngineConfiguration.RuleOverride] {
        if node.null != nil { return [:] }
        guard let mapping = node.mapping else {
            fail(node, path, "must be a mapping of rule id to overrides")
            return [:]
        }
        var result: [String: EngineConfiguration.RuleOverride] = [:]
        for (keyNode, value) in mapping {
            let id = keyName(keyNode)
            let key = "\(path).\(id)"
            guard let rule = catalog.rule(id: id) else {
                fail(keyNode, key, "unknown rule id; `modalwatch rules` lists the loaded rules")
                continue
            }
            if let override = readRuleOverride(value, key, rule: rule) { result[id] = override }
        }
        return result
    }

    mutating func readRuleOverride(
        _ node: Node,
        _ path: String,
        rule: RuleDescriptor
    ) -> EngineConfiguration.RuleOverride? {
        guard let mapping = node.mapping else {
            fail(
                node,
                path,
                "must be a mapping such as { enabled: false } or { \(rule.parameters.first?.name ?? "severity"): ... }"
            )
            return nil
        }
        var override = EngineConfiguration.RuleOverride()
        for (keyNode, value) in mapping {
            let name = keyName(keyNode)
            let key = "\(path).\(name)"
            switch name {
            case "enabled":
                if let flag = value.scalar.flatMap({ Bool.construct(from: $0) }) {
                    override.enabled = flag
                } else {
                    fail(value, key, "must be true or false")
                }
            case "severity":
                if let text = readString(value, key) {
                    if let severity = Severity(name: text) {
                        override.severity = severity
                    } else {
                        fail(value, key, "'\(text)' is not a severity; use info, warning or error")
                    }
                }
            default:
                guard let parameter = rule.parameters.first(where: { $0.name == name }) else {
                    let known = rule.parameters.map(\.name)
                    let hint = known.isEmpty ? "it has none" : "it has \(known.joined(separator: ", "))"
                    fail(keyNode, key, "rule '\(rule.id)' has no parameter '\(name)' (\(hint); also enabled, severity)")
                    continue
                }
                let parsed: Int64?
                switch parameter.kind {
                case .int: parsed = readInteger(value, key, minimum: parameter.minimum, maximum: parameter.maximum)
                case .durationMs:
                    parsed = readDuration(value, key, minimum: parameter.minimum, maximum: parameter.maximum)
                }
                if let parsed { override.parameters[name] = parsed }
            }
        }
        return override
    }

    mutating func readHistory(_ node: Node, _ path: String, into configuration: inout DaemonConfiguration) {
        guard let mapping = node.mapping else {
            fail(node, path, "must be a mapping such as { max_age: 30d, max_rows: 1000000 }")
            return
        }
        var store: (name: String, node: Node)?
        var postgresql: (conninfo: String, node: Node)?
        for (keyNode, value) in mapping {
            let name = keyName(keyNode)
            let key = "\(path).\(name)"
            switch name {
            case "store":
                if let v = readString(value, key) {
                    if v == "sqlite" || v == "postgresql" {
                        store = (v, keyNode)
                    } else {
                        fail(value, key, "must be sqlite or postgresql")
                    }
                }
            case "postgresql":
                if value.null != nil {
                    postgresql = nil
                } else if let v = readString(value, key) {
                    if v.trimmingCharacters(in: .whitespaces).isEmpty {
                        fail(
                            value,
                            key,
                            "must be a libpq connection string or URI such as \"host=/run/postgresql dbname=modalwatch\""
                        )
                    } else {
                        postgresql = (v, keyNode)
                    }
                }
            case "max_age":
                if value.null != nil {
                    configuration.historyMaxAgeMs = nil
                } else if let v = readDuration(value, key, minimum: 1000) {
                    configuration.historyMaxAgeMs = v
                }
            case "max_rows":
                if value.null != nil {
                    configuration.historyMaxRows = nil
                } else if let v = readInteger(value, key, minimum: 1, maximum: 1_000_000_000) {
                    configuration.historyMaxRows = Int(v)
                }
            case "spool_memory":
                if let v = readInteger(value, key, minimum: 0, maximum: 1 << 40) {
                    configuration.spoolMemoryBytes = Int(v)
                }
            case "spool_file":
                if let v = readInteger(value, key, minimum: 0, maximum: 1 << 50) {
                    configuration.spoolFileBytes = Int(v)
                }
            case "wal_limit":
                if let v = readInteger(value, key, minimum: 1 << 20, maximum: 1 << 50) {
                    configuration.historyWALLimitBytes = Int(v)
                }
            case "group":
                if value.null != nil {
                    configuration.stateGroup = nil
                } else if let v = readString(value, key) {
                    if v.isEmpty
                        || v.contains(where: {
                            $0 == ":" || $0 == "/" || $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true
                        })
                    {
                        fail(value, key, "must be a group name such as modalwatch")
                    } else {
                        configuration.stateGroup = v
                    }
                }
            default:
                fail(
                    keyNode,
                    key,
                    "unknown key; history takes store, postgresql, max_age, max_rows, spool_memory, spool_file and wal_limit (bytes), and group"
                )
            }
        }
        switch (store?.name, postgresql) {
        case ("postgresql", let postgresql?):
            configuration.historyPostgreSQL = postgresql.conninfo
        case ("postgresql", nil):
            fail(
                store!.node,
                "\(path).store",
                "is postgresql but \(path).postgresql (the connection string) is not set"
            )
        case (_, let postgresql?):
            fail(
                postgresql.node,
                "\(path).postgresql",
                "is set but \(path).store is not postgresql; add store: postgresql"
            )
        default:
            configuration.historyPostgreSQL = nil
        }
    }

    mutating func readCurve(_ node: Node, _ path: String) -> CurveConfiguration? {
        guard let mapping = node.mapping else {
            fail(
                node,
                path,
                "must be a mapping such as { key_file: /etc/modalwatch/curve.key, allowed_clients: [...] }"
            )
            return nil
        }
        var keyFile: String?
        var allowed: [String] = []
        var ingest = true
        var publish = true
        for (keyNode, value) in mapping {
            let name = keyName(keyNode)
            let key = "\(path).\(name)"
            switch name {
            case "key_file": keyFile = readString(value, key)
            case "allowed_clients":
                for client in readStrings(value, key) ?? [] {
                    if CurveKeyFile.isZ85Key(client) {
                        allowed.append(client)
                    } else {
                        fail(value, key, "'\(client.prefix(12))…' is not a CURVE public key (40 Z85 characters)")
                    }
                }
            case "ingest", "publish":
                guard let flag = value.scalar.flatMap({ Bool.construct(from: $0) }) else {
                    fail(value, key, "must be true or false")
                    continue
                }
                if name == "ingest" { ingest = flag } else { publish = flag }
            default:
                fail(keyNode, key, "unknown key; curve takes key_file, allowed_clients, ingest and publish")
            }
        }
        guard let keyFile else {
            fail(node, path, "needs key_file: the server's key pair (`modalwatch keygen --output FILE` makes one)")
            return nil
        }
        return CurveConfiguration(keyFile: keyFile, allowedClients: allowed, ingest: ingest, publish: publish)
    }

    mutating func readShard(_ node: Node, _ path: String, peers: inout [String]) -> ShardAssignment? {
        guard let mapping = node.mapping else {
            fail(
                node,
                path,
                "must be a mapping such as { index: 0, count: 3, key: app, peers: [ipc:///run/modalwatch/shard-1/control.sock] }"
            )
            return nil
        }
        var index: Int64?
        var count: Int64?
        var key = ShardKey.app
        var valid = true
        for (keyNode, value) in mapping {
            let name = keyName(keyNode)
            let full = "\(path).\(name)"
            switch name {
            case "index":
                index = readInteger(value, full, minimum: 0, maximum: Int64(ShardAssignment.maximumCount - 1))
                if index == nil { valid = false }
            case "count":
                count = readInteger(value, full, minimum: 1, maximum: Int64(ShardAssignment.maximumCount))
                if count == nil { valid = false }
            case "key":
                guard let text = readString(value, full) else {
                    valid = false
                    continue
                }
                guard let parsed = ShardKey(rawValue: text) else {
                    fail(value, full, "'\(text)' is not a shard key; use app or session")
                    valid = false
                    continue
                }
                key = parsed
            case "peers":
                peers = readStrings(value, full, allowEmpty: true) ?? []
            default:
                fail(keyNode, full, "unknown key; shard takes index, count, key and peers")
                valid = false
            }
        }
        guard valid else { return nil }
        // `peers` alone: the index and count come from --shard.
        if index == nil, count == nil, mapping.contains(where: { keyName($0.key) == "peers" }) { return nil }
        guard let index, let count else {
            fail(node, path, "needs index and count, e.g. { index: 0, count: 3 }")
            return nil
        }
        guard let shard = ShardAssignment(index: Int(index), count: Int(count), key: key) else {
            fail(node, "\(path).index", "\(index) is out of range 0...\(count - 1) for count \(count)")
            return nil
        }
        return shard
    }

    mutating func readApps(_ node: Node, _ path: String) -> [String: EngineConfiguration.AppOverride] {
        if node.null != nil { return [:] }
        guard let mapping = node.mapping else {
            fail(node, path, "must be a mapping of bundle id to { edition, rules }")
            return [:]
        }
        var result: [String: EngineConfiguration.AppOverride] = [:]
        for (keyNode, value) in mapping {
            let app = keyName(keyNode)
            let key = "\(path).\(app)"
            guard let inner = value.mapping else {
                fail(value, key, "must be a mapping such as { edition: ios7, rules: { ... } }")
                continue
            }
            var override = EngineConfiguration.AppOverride()
            for (innerKey, innerValue) in inner {
                let name = keyName(innerKey)
                switch name {
                case "edition": override.edition = readEdition(innerValue, "\(key).edition")
                case "rules": override.rules = readRuleOverrides(innerValue, "\(key).rules")
                default: fail(innerKey, "\(key).\(name)", "unknown key; an app takes edition and rules")
                }
            }
            result[app] = override
        }
        return result
    }

    mutating func readEdition(_ node: Node, _ key: String) -> Edition? {
        guard let text = readString(node, key) else { return nil }
        guard let edition = Edition(name: text) else {
            fail(node, key, "'\(text)' is not an edition; use 2009, ios7 or current")
            return nil
        }
        return edition
    }

    mutating func readFlag(_ node: Node, _ key: String) -> Bool? {
        guard let flag = node.scalar.flatMap({ Bool.construct(from: $0) }) else {
            fail(node, key, "must be true or false")
            return nil
        }
        return flag
    }

    mutating func readString(_ node: Node, _ key: String) -> String? {
        guard let scalar = node.scalar else {
            fail(node, key, "must be a single value, not a list or mapping")
            return nil
        }
        return scalar.string
    }

    mutating func readStrings(_ node: Node, _ key: String, allowEmpty: Bool = false) -> [String]? {
        if let scalar = node.scalar { return [scalar.string] }
        guard let sequence = node.sequence else {
            fail(node, key, "must be a list of strings")
            return nil
        }
        var result: [String] = []
        for item in sequence {
            guard let scalar = item.scalar else {
                fail(item, key, "each item must be a string")
                continue
            }
            if scalar.string.isEmpty && !allowEmpty { fail(item, key, "an empty string is not an endpoint") }
            result.append(scalar.string)
        }
        return result
    }

    mutating func readInteger(_ node: Node, _ key: String, minimum: Int64, maximum: Int64) -> Int64? {
        guard let scalar = node.scalar, let value = Int64(scalar.string) else {
            fail(node, key, "must be a whole number")
            return nil
        }
        guard value >= minimum && value <= maximum else {
            fail(node, key, "\(value) is out of range \(minimum)...\(maximum)")
            return nil
        }
        return value
    }

    mutating func readDuration(_ node: Node, _ key: String, minimum: Int64 = 0, maximum: Int64 = .max) -> Int64? {
        guard let scalar = node.scalar else {
            fail(node, key, "must be a duration such as 600s, 15m or 1000ms")
            return nil
        }
        guard let value = DurationParser.milliseconds(scalar.string) else {
            if Int64(scalar.string) != nil {
                fail(node, key, "'\(scalar.string)' has no unit; write e.g. \(scalar.string)s or \(scalar.string)ms")
            } else {
                fail(node, key, "'\(scalar.string)' is not a duration; write e.g. 600s, 15m or 1000ms")
            }
            return nil
        }
        guard value >= minimum && value <= maximum else {
            fail(node, key, "\(scalar.string) is out of range \(minimum) ms...\(maximum) ms")
            return nil
        }
        return value
    }
}

/// What reads one top-level key: the reader (for its errors), the value, the key, the configuration.
private typealias TopLevelKeyReader = @Sendable (inout Reader, Node, String, inout DaemonConfiguration) -> Void

extension Reader {
    /// The top-level keys, in the order the error for an unknown key lists them, each with its reader.
    fileprivate static let topLevelKeys: [(name: String, read: TopLevelKeyReader)] = [
        (
            "edition",
            { r, value, key, c in if let edition = r.readEdition(value, key) { c.engine.defaultEdition = edition } }
        ),
        ("events", { r, value, key, c in if let v = r.readStrings(value, key) { c.events = v } }),
        ("events_connect", { r, value, key, c in if let v = r.readStrings(value, key) { c.eventsConnect = v } }),
        (
            "subscribe",
            { r, value, key, c in if let v = r.readStrings(value, key, allowEmpty: true) { c.subscribe = v } }
        ),
        (
            "shard",
            { r, value, key, c in
                if value.null != nil { c.shard = nil } else { c.shard = r.readShard(value, key, peers: &c.shardPeers) }
            }
        ),
        ("publish", { r, value, key, c in if let v = r.readString(value, key) { c.publish = v } }),
        ("control", { r, value, key, c in if let v = r.readString(value, key) { c.control = v } }),
        (
            "metrics",
            { r, value, key, c in
                if value.null != nil { c.metrics = nil } else if let v = r.readString(value, key) { c.metrics = v }
            }
        ),
        (
            "metrics_allow_remote",
            { r, value, key, c in if let flag = r.readFlag(value, key) { c.metricsAllowRemote = flag } }
        ),
        ("rules_dirs", { r, value, key, c in if let v = r.readStrings(value, key) { c.rulesDirs = v } }),
        (
            "rule_call_timeout",
            { r, value, key, c in
                if value.null != nil {
                    c.ruleCallTimeoutMs = nil
                } else if let v = r.readDuration(value, key, minimum: 10, maximum: 3_600_000) {
                    c.ruleCallTimeoutMs = v
                }
            }
        ),
        (
            "module_load_timeout",
            { r, value, key, c in
                if let v = r.readDuration(
                    value,
                    key,
                    minimum: ConfigLoader.moduleLoadTimeoutRange.lowerBound,
                    maximum: ConfigLoader.moduleLoadTimeoutRange.upperBound
                ) {
                    c.moduleLoadTimeoutMs = v
                }
            }
        ),
        ("quarantine", { r, value, key, c in if let flag = r.readFlag(value, key) { c.quarantineEnabled = flag } }),
        (
            "stop_timeout",
            { r, value, key, c in
                if let v = r.readDuration(value, key, minimum: 100, maximum: 3_600_000) { c.stopTimeoutMs = v }
            }
        ),
        (
            "checkpoint_interval",
            { r, value, key, c in
                if let v = r.readDuration(value, key, minimum: 1000, maximum: 3_600_000) { c.checkpointIntervalMs = v }
            }
        ),
        ("state_dir", { r, value, key, c in if let v = r.readString(value, key) { c.stateDirectory = v } }),
        ("history", { r, value, key, c in r.readHistory(value, key, into: &c) }),
        ("curve", { r, value, key, c in if value.null == nil { c.curve = r.readCurve(value, key) } }),
        (
            "control_allow_reload_over_tcp",
            { r, value, key, c in
                if let flag = value.scalar.flatMap({ Bool.construct(from: $0) }) {
                    c.controlAllowReloadOverTCP = flag
                } else {
                    r.fail(value, key, "must be true or false")
                }
            }
        ),
        (
            "log_level",
            { r, value, key, c in
                if let v = r.readString(value, key) {
                    if ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(v) {
                        c.logLevel = v
                    } else {
                        r.fail(
                            value,
                            key,
                            "'\(v)' is not a log level; use trace, debug, info, notice, warning, error or critical"
                        )
                    }
                }
            }
        ),
        (
            "session_idle_timeout",
            { r, value, key, c in
                if let v = r.readDuration(value, key, minimum: 1000) { c.engine.sessionIdleTimeoutMs = v }
            }
        ),
        (
            "max_sessions",
            { r, value, key, c in
                if let v = r.readInteger(value, key, minimum: 1, maximum: 100_000_000) { c.engine.maxSessions = Int(v) }
            }
        ),
        (
            "max_apps",
            { r, value, key, c in
                if let v = r.readInteger(value, key, minimum: 1, maximum: 100_000_000) { c.engine.maxApps = Int(v) }
            }
        ),
        (
            "max_app_values",
            { r, value, key, c in
                if let v = r.readInteger(value, key, minimum: 1, maximum: 1_000_000) { c.engine.maxAppValues = Int(v) }
            }
        ),
        (
            "max_ingest_connections",
            { r, value, key, c in
                if let v = r.readInteger(value, key, minimum: 1, maximum: 10_000_000) {
                    c.maxIngestConnections = Int(v)
                }
            }
        ),
        (
            "max_violations_per_rule_per_second",
            { r, value, key, c in
                if let v = r.readInteger(value, key, minimum: 1, maximum: 10_000_000) {
                    c.engine.maxViolationsPerRulePerSecond = Int(v)
                }
            }
        ),
        ("rules", { r, value, key, c in c.engine.rules = r.readRuleOverrides(value, key) }),
        ("apps", { r, value, key, c in c.engine.apps = r.readApps(value, key) }),
        (
            "modules",
            { r, value, key, c in
                let sources = r.sources
                var modules = ModuleSettingsReader { sources.file(of: $0) }
                c.moduleSettings = modules.read(value, catalog: r.catalog)
                r.errors += modules.errors
            }
        ),
    ]

    /// The readers by key.
    fileprivate static let topLevelReaders = Dictionary(uniqueKeysWithValues: topLevelKeys.map { ($0.name, $0.read) })

    /// The error for an unknown top-level key, naming every known one.
    fileprivate static let unknownTopLevelKey =
        "unknown key; known keys are " + topLevelKeys.map(\.name).joined(separator: ", ")
}
