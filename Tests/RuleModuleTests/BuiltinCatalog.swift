import Foundation
import Logging
import RuleHost
import XCTest

/// The built-in modules as the daemon finds them (next to the test binary in a
/// build tree), and the paths of the project's files the tests read.
enum BuiltinCatalog {
    /// The package root, from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The rule catalogue of the contract, `docs/spec/rules.md`.
    static let rulesSpec = packageRoot.appendingPathComponent("docs/spec/rules.md")

    /// The recorded streams folder.
    static let streams = packageRoot.appendingPathComponent("Tests/RuleModuleTests/Streams")

    /// The modules rules.md says ship with modalwatch.
    static let shippedModules = ["overuse", "modality", "alert-content", "action-sheet"]

    /// Loads the built-in modules through the real loader.
    static func load() -> RuleCatalog {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return ModuleLoader(logger: logger).load(directories: [])
    }
}
