import ArgumentParser
import ControlProtocol
import DaemonCore
import Foundation
import Logging
import ModalwatchConfig
import Posix
import RuleHost
import ServiceLifecycle
import SessionEngine
import ShardRouting
import UnixSignals
import ZeroMQ

/// `modalwatchd`: subscribes to UI-event streams, judges them by the loaded rule
/// modules, and publishes violations (interfaces.md, "modalwatchd").
struct Modalwatchd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modalwatchd",
        abstract: "Watch UI-event streams over ZeroMQ and publish Human Interface Guidelines violations.",
        version: ModalwatchVersion.string
    )

    @Option(name: .long, help: "Configuration file (default: \(ConfigLoader.defaultPath) if it exists).")
    var config: String?

    @Option(name: .long, help: "Bind the ingest SUB socket here (repeatable; default \(DefaultEndpoints.events)).")
    var events: [String] = []

    @Option(name: .customLong("events-connect"), help: "Also connect the ingest SUB socket here (repeatable).")
    var eventsConnect: [String] = []

    @Option(name: .long, help: "Bind the violations PUB socket here (default \(DefaultEndpoints.publish)).")
    var publish: String?

    @Option(name: .long, help: "Bind the control REP socket here (default \(DefaultEndpoints.control)).")
    var control: String?

    @Option(
        name: .long,
        help:
            "Serve Prometheus /metrics and /healthz on HOST:PORT (overrides metrics:; one port for each instance of modalwatchd@)."
    )
    var metrics: String?

    @Option(name: .long, help: "Guideline edition for apps the config does not name: 2009, ios7 or current.")
    var edition: String?

    @Option(name: .customLong("rules-dir"), help: "Load rule modules from this folder too (repeatable).")
    var rulesDir: [String] = []

    @Option(
        name: .customLong("state-dir"),
        help: "History store and session snapshots (default $STATE_DIRECTORY, else ~/.local/state/modalwatch)."
    )
    var stateDir: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Option(name: .long, help: "Own the shard buckets bb with bb mod N == I (I/N, e.g. 0/3; docs/SCALING.md).")
    var shard: String?

    @Option(name: .customLong("shard-key"), help: "What buckets are computed from: app (default) or session.")
    var shardKey: String?

    @Flag(
        name: .customLong("check-config"),
        help: "Load the configuration and every rule module, print what is wrong, exit 0 or 1."
    )
    var checkConfig = false

    /// Runs the daemon; bad usage exits 2 (interfaces.md), not ArgumentParser's 64.
    /// Started as a module probe child (`--probe-module`, hidden), it does only that.
    static func main() async {
        ModuleProbe.runChildIfAsked()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                // Under systemd the line reaches the journal at priority err, not the stream's info.
                let journal = Posix.stderrIsJournal(environment: ProcessInfo.processInfo.environment)
                let prefix = journal ? "<\(JournalLogHandler.priority(.error))>" : ""
                FileHandle.standardError.write(Data((prefix + fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }

    func validate() throws {
        if let edition, Edition(name: edition) == nil {
            throw ValidationError("--edition must be 2009, ios7 or current, not '\(edition)'")
        }
        if let shard, shard.hasSuffix("/") {
            throw ValidationError(
                "--shard '\(shard)' has no shard count: modalwatchd@.service reads it as MODALWATCH_SHARD_COUNT from /etc/modalwatch/shards.env (docs/SCALING.md)"
            )
        }
        if let shardKey, shardKey.isEmpty {
            throw ValidationError(
                "--shard-key is empty: modalwatchd@.service reads it as MODALWATCH_SHARD_KEY from /etc/modalwatch/shards.env (docs/SCALING.md)"
            )
        }
        if let shard, ShardAssignment(parsing: shard) == nil {
            throw ValidationError("--shard must be I/N with N 1 to 256 and I 0 to N-1 (e.g. 0/3), not '\(shard)'")
        }
        if let shardKey, ShardKey(rawValue: shardKey) == nil {
            throw ValidationError("--shard-key must be app or session, not '\(shardKey)'")
        }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical")
        }
    }

    func run() async throws {
        HeapSettings.apply(environment: ProcessInfo.processInfo.environment)
        // Under systemd, stderr is the journal's stream: lines with priorities, no timestamps of their own.
        let journal = Posix.stderrIsJournal(environment: ProcessInfo.processInfo.environment)
        if journal { LoggingSystem.bootstrap { JournalLogHandler(label: $0) } }
        // Lines written before the loggers (a configuration that does not load): errors, for the journal too.
        let errorPrefix = journal ? "<\(JournalLogHandler.priority(.error))>" : ""
        var bootstrapLogger = Logger(label: "modalwatchd")
        bootstrapLogger.logLevel = logLevel.flatMap(Logger.Level.init(rawValue:)) ?? (checkConfig ? .warning : .info)
        let configPath = resolvedConfigPath()
        // The file is read and parsed once at start: the modules' early values, then the whole check.
        let configFile = configPath.map(ConfigFile.init(path:))
        let directories = rulesDir + (configFile?.rulesDirectories ?? [])
        let moduleSettings = configFile?.moduleSettings ?? [:]
        let loadTimeout = configFile?.moduleLoadTimeoutMs ?? DaemonConfiguration().moduleLoadTimeoutMs
        let catalog = ModuleLoader(logger: bootstrapLogger, probe: ModuleProbe.ofThisExecutable(timeoutMs: loadTimeout))
            .load(directories: directories, settings: moduleSettings)

        let loaded: DaemonConfiguration
        do {
            loaded = try loadConfiguration(file: configFile, catalog: catalog)
        } catch {
            for line in error.errors {
                FileHandle.standardError.write(Data("\(errorPrefix)modalwatchd: \(line)\n".utf8))
            }
            throw ExitCode(1)
        }
        // Every endpoint checked by the same parser, for --check-config and for a start alike.
        let endpointProblems = EndpointCheck.problems(in: loaded)
        for problem in endpointProblems {
            FileHandle.standardError.write(Data("\(errorPrefix)modalwatchd: \(problem)\n".utf8))
        }
        if !endpointProblems.isEmpty { throw ExitCode(1) }
        let endpoints = loaded.events + loaded.eventsConnect + [loaded.publish, loaded.control]
        if let refusal = ZMQTransportCheck.refusal(endpoints: endpoints) {
            let critical = journal ? "<\(JournalLogHandler.priority(.critical))>" : ""
            FileHandle.standardError.write(Data("\(critical)modalwatchd: cannot start: \(refusal)\n".utf8))
            throw ExitCode(1)
        }
        if checkConfig {
            print("configuration: \(configPath ?? "built-in defaults"): ok")
            for module in catalog.modules {
                print("module \(module.name) \(module.version): \(module.rules.count) rules (\(module.path))")
            }
            for failure in catalog.failures { print("module failed: \(failure.description)") }
            throw ExitCode(catalog.failures.isEmpty && !catalog.modules.isEmpty ? 0 : 1)
        }
        var logger = bootstrapLogger
        logger.logLevel =
            logLevel.flatMap(Logger.Level.init(rawValue:))
            ?? Logger.Level(rawValue: loaded.logLevel) ?? .info
        if catalog.modules.isEmpty {
            logger.warning("no rule module loaded; events are received and counted but nothing is judged")
        }

        let wakeup = try Wakeup()
        // A reload reads the file again.
        let configurationSource: IngestLoop.ConfigurationSource = { [self] in
            try self.loadConfiguration(file: configPath.map(ConfigFile.init(path:)), catalog: catalog)
        }
        let settings = IngestLoop.Settings(
            configuration: loaded,
            catalog: catalog,
            wakeup: wakeup,
            logger: logger,
            notifier: SystemdNotifier(environment: ProcessInfo.processInfo.environment),
            configurationSource: configurationSource
        )
        let group = ServiceGroup(
            services: [
                ReloadService(wakeup: wakeup, configurationSource: configurationSource),
                IngestService(settings: settings),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            cancellationSignals: [],
            logger: logger
        )
        do {
            try await group.run()
        } catch let error as DaemonError {
            var metadata: Logger.Metadata = ["error": "\(error.message)"]
            if let step = error.step { metadata["step"] = "\(step)" }
            logger.critical("modalwatchd cannot run", metadata: metadata)
            throw ExitCode(1)
        }
    }

    /// `$STATE_DIRECTORY` (systemd's StateDirectory=), else `~/.local/state/modalwatch`.
    static func defaultStateDirectory() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first { return String(state) }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/modalwatch"
    }

    private func resolvedConfigPath() -> String? {
        if let config { return config }
        return FileManager.default.fileExists(atPath: ConfigLoader.defaultPath) ? ConfigLoader.defaultPath : nil
    }

    /// The file's configuration (or the defaults) with the flags laid over it.
    private func loadConfiguration(file: ConfigFile?, catalog: RuleCatalog) throws(ConfigErrors) -> DaemonConfiguration
    {
        var configuration = DaemonConfiguration()
        if let file { configuration = try ConfigLoader(catalog: catalog).load(file) }
        if !events.isEmpty { configuration.events = events }
        if !eventsConnect.isEmpty { configuration.eventsConnect = eventsConnect }
        if let publish { configuration.publish = publish }
        if let control { configuration.control = control }
        if let metrics { configuration.metrics = metrics }
        if let edition = edition.flatMap(Edition.init(name:)) { configuration.engine.defaultEdition = edition }
        configuration.rulesDirs = rulesDir + configuration.rulesDirs
        let key = shardKey.flatMap(ShardKey.init(rawValue:))
        if let assignment = shard.flatMap({ ShardAssignment(parsing: $0, key: key ?? configuration.shard?.key ?? .app) }
        ) {
            configuration.shard = assignment
        } else if let key {
            guard let current = configuration.shard else {
                throw ConfigErrors([
                    ConfigError(
                        file: "--shard-key",
                        line: 0,
                        key: "shard.key",
                        message:
                            "--shard-key needs a shard: pass --shard I/N or set shard: { index, count } in the configuration"
                    )
                ])
            }
            configuration.shard = ShardAssignment(index: current.index, count: current.count, key: key)
        }
        if let stateDir {
            configuration.stateDirectory = stateDir
        } else if configuration.stateDirectory == nil {
            configuration.stateDirectory = Self.defaultStateDirectory()
        }
        return configuration
    }
}
