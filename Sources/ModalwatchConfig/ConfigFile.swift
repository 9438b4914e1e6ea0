/// A configuration file and its drop-ins, read and parsed once at start: what the modules need
/// before they load (`rulesDirectories`, `moduleSettings`, `moduleLoadTimeoutMs`), then the whole
/// check against the loaded modules (`ConfigLoader.load(_:)`). A file that does not read gives
/// no early values, and its errors at the check.
public struct ConfigFile {
    /// The main file's path.
    public let path: String
    /// The sources read, or why they could not be.
    let sources: Result<ConfigSources, ConfigErrors>

    /// Reads `path` and its drop-ins (`ConfigSources`).
    public init(path: String) {
        self.path = path
        sources = Result { () throws(ConfigErrors) in try ConfigSources(path: path) }
    }

    /// The `rules_dirs` it names (`ConfigLoader.peekRulesDirectories(path:)`).
    public var rulesDirectories: [String] { ConfigLoader.rulesDirectories(in: try? sources.get()) }

    /// Each module's settings it gives (`ConfigLoader.peekModuleSettings(path:)`).
    public var moduleSettings: [String: [(key: String, value: String)]] {
        ConfigLoader.moduleSettings(in: try? sources.get(), path: path)
    }

    /// The `module_load_timeout` it sets (`ConfigLoader.peekModuleLoadTimeout(path:)`).
    public var moduleLoadTimeoutMs: Int64? { ConfigLoader.moduleLoadTimeout(in: try? sources.get()) }
}

@available(*, unavailable)
extension ConfigFile: Sendable {}
