public import Foundation
public import Logging
public import RuleHost

/// The built-in rule modules as the daemon finds them (next to the running binary in a build tree),
/// and the paths of the project's files tests read.
public enum BuiltinCatalog: Sendable {
    /// The package root, from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The rule catalogue of the contract, `docs/spec/rules.md`.
    public static let rulesSpec = packageRoot.appendingPathComponent("docs/spec/rules.md")

    /// The recorded streams folder.
    public static let streams = packageRoot.appendingPathComponent("Tests/RuleModuleTests/Streams")

    /// The modules rules.md says ship with modalwatch.
    public static let shippedModules = ["overuse", "modality", "alert-content", "action-sheet"]

    /// A logger that drops everything.
    public static let silentLogger = Logger(label: "modalwatch.tests") { _ in SwiftLogNoOpLogHandler() }

    /// Loads the built-in modules through the real loader, logging nowhere.
    public static func load(logger: Logger = silentLogger) -> RuleCatalog {
        ModuleLoader(logger: logger).load(directories: [])
    }
}
