import ArgumentParser
import Foundation
import Logging
import ModalwatchConfig
import RuleHost
import SessionEngine

/// Options shared by the commands that load rule modules themselves (`check`, `rules --offline`).
struct RuleSelectionOptions: ParsableArguments {
    @Option(name: .long, help: "Guideline edition: 2009, ios7 or current (default: the config's, else current).")
    var edition: String?

    @Option(name: .long, help: "Configuration file whose rule and app settings apply.")
    var config: String?

    @Option(name: .customLong("rules-dir"), help: "Load rule modules from this folder too (repeatable).")
    var rulesDir: [String] = []

    func validate() throws {
        if let edition, Edition(name: edition) == nil {
            throw ValidationError("--edition must be 2009, ios7 or current, not '\(edition)'")
        }
    }

    /// The loader of the daemon: each module tried in a probe child first, within the
    /// configuration's `module_load_timeout`.
    func moduleLoader(logger: Logger) -> ModuleLoader {
        let timeout =
            config.flatMap(ConfigLoader.peekModuleLoadTimeout(path:)) ?? DaemonConfiguration().moduleLoadTimeoutMs
        return ModuleLoader(logger: logger, probe: ModuleProbe.ofThisExecutable(timeoutMs: timeout))
    }

    /// Loads the modules and the configuration; exits 2 with one line per problem.
    func load() throws -> (RuleCatalog, DaemonConfiguration) {
        for directory in rulesDir {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                Terminal.error("--rules-dir \(directory): no such folder; name a folder of rule modules (.so files)")
                throw ExitCode(2)
            }
        }
        var logger = Logger(label: "modalwatch")
        logger.logLevel = .critical
        let directories = rulesDir + (config.map(ConfigLoader.peekRulesDirectories(path:)) ?? [])
        let settings = config.map(ConfigLoader.peekModuleSettings(path:)) ?? [:]
        let catalog = moduleLoader(logger: logger).load(directories: directories, settings: settings)
        for failure in catalog.failures { Terminal.error("rule module not loaded: \(failure.description)") }
        var configuration = DaemonConfiguration()
        if let config {
            do {
                configuration = try ConfigLoader(catalog: catalog).load(path: config)
            } catch {
                for line in error.errors { Terminal.error(line.description) }
                throw ExitCode(2)
            }
        }
        if let edition = edition.flatMap(Edition.init(name:)) { configuration.engine.defaultEdition = edition }
        return (catalog, configuration)
    }
}
