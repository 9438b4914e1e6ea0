import ArgumentParser
import Foundation
import ModalwatchConfig

/// Where the command line finds the daemon (interfaces.md): the endpoints given with a flag,
/// else the environment (`MODALWATCH_CONTROL`, `MODALWATCH_PUBLISH`), else the key of the
/// daemon's config file (`control:`, `publish:`), else the default endpoint.
///
/// The config file is `--config`, else `MODALWATCH_CONFIG`, else
/// `/etc/modalwatch/modalwatchd.yaml` when it exists and is readable. A file named with
/// `--config` or `MODALWATCH_CONFIG` that cannot be read is bad usage; the default path is
/// only used when it can be read.
struct DaemonLocation {
    /// The environment variable naming the control endpoint(s).
    static let controlVariable = "MODALWATCH_CONTROL"
    /// The environment variable naming the publish endpoint(s).
    static let publishVariable = "MODALWATCH_PUBLISH"
    /// The environment variable naming the daemon's config file.
    static let configVariable = "MODALWATCH_CONFIG"

    /// The process environment (given, so that tests choose it).
    let environment: [String: String]
    /// The config file named with `--config`, if any.
    let configFlag: String?

    init(configFlag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.configFlag = configFlag
        self.environment = environment
    }

    /// The control endpoints: `flags`, else `MODALWATCH_CONTROL`, else `control:` of the config, else the default.
    func control(_ flags: [String]) -> [String] {
        resolve(flags, variable: Self.controlVariable, key: "control", fallback: DefaultEndpoints.control)
    }

    /// The publish endpoints: `flags`, else `MODALWATCH_PUBLISH`, else `publish:` of the config, else the default.
    func publish(_ flags: [String]) -> [String] {
        resolve(flags, variable: Self.publishVariable, key: "publish", fallback: DefaultEndpoints.publish)
    }

    /// The config file read for endpoints, if any: named (`--config`, `MODALWATCH_CONFIG`), or the default path when readable.
    var configPath: String? {
        if let named = namedConfig { return named }
        return FileManager.default.isReadableFile(atPath: ConfigLoader.defaultPath) ? ConfigLoader.defaultPath : nil
    }

    /// A config file named with `--config` or `MODALWATCH_CONFIG`.
    private var namedConfig: String? {
        if let configFlag { return configFlag }
        if let named = environment[Self.configVariable], !named.isEmpty { return named }
        return nil
    }

    /// Throws a usage error when a named config file cannot be read.
    func validate() throws {
        guard let named = namedConfig, !FileManager.default.isReadableFile(atPath: named) else { return }
        let source = configFlag != nil ? "--config" : Self.configVariable
        throw ValidationError("cannot read the config file '\(named)' (\(source)); check the path and permissions")
    }

    private func resolve(_ flags: [String], variable: String, key: String, fallback: String) -> [String] {
        if !flags.isEmpty { return flags }
        if let value = environment[variable] {
            // Several daemons (scale.md): endpoints separated by commas or spaces.
            let listed = value.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            if !listed.isEmpty { return listed }
        }
        if let path = configPath, let configured = ConfigLoader.peekString(key, path: path) { return [configured] }
        return [fallback]
    }
}
