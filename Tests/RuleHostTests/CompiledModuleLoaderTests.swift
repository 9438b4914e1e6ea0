import InMemoryLogging
import Logging
import ModalwatchTesting
import RuleHost
import XCTest

/// The real loader over a directory of good and broken modules: each broken one is refused with one
/// line naming its file and its reason, and the good ones load.
final class CompiledModuleLoaderTests: XCTestCase {
    private static let broken = [
        "bad_default", "bad_editions", "bad_id", "bad_major", "bad_minor", "bad_null_on_event", "bad_severity",
        "dup_across_b", "dup_module_name", "dup_rule_inside", "no_entry", "null_entry",
    ]
    private static let modules: Result<String, ModuleCompiler.Failure> = {
        let compiled = ModuleCompiler.compileOnce(
            label: "loader",
            fixtures: ["probe", "dup_across_a"] + broken
        )
        guard case .success(let directory) = compiled else { return compiled }
        do {
            try Data("this is not a shared library\n".utf8).write(
                to: URL(fileURLWithPath: directory + "/not_a_library.so")
            )
            try Data("not a module either, and not named .so\n".utf8).write(
                to: URL(fileURLWithPath: directory + "/README.txt")
            )
        } catch {
            return .failure(.fileSystem("cannot write fixtures: \(error)"))
        }
        return compiled
    }()
    override class func tearDown() { ModuleCompiler.remove(modules) }

    /// Each refused file, and what its one line must say.
    private func expectations(_ dir: String) -> [String: String] {
        [
            "bad_default.so": "bad metadata: rule 'default-rule': parameter 'window' default 50 is outside 100...1000",
            "bad_editions.so": "bad metadata: rule 'nowhere-rule': editions 0 must be a non-empty set",
            "bad_id.so": "bad metadata: rule id 'Bad Id!' must be 1-64 of a-z, 0-9, '-', '_'",
            "bad_major.so": "built for rule ABI 2.0, this daemon speaks 1.\(ModuleLoader.hostABI.minor)",
            "bad_minor.so":
                "built for rule ABI 1.\(ModuleLoader.hostABI.minor + 1), this daemon speaks 1.\(ModuleLoader.hostABI.minor)",
            "bad_null_on_event.so": "bad metadata: rule 'no-handler': on_event is NULL",
            "bad_severity.so": "bad metadata: rule 'severe-rule': unknown severity 9",
            "dup_across_b.so": "rule id 'shared-rule' is already declared by \(dir)/dup_across_a.so",
            "dup_module_name.so": "a module named 'across_a' was already loaded from \(dir)/dup_across_a.so",
            "dup_rule_inside.so": "rule id 'twice-rule' is declared twice in the module",
            "no_entry.so": "no entry symbol 'modalwatch_module'",
            "null_entry.so": "modalwatch_module() returned NULL",
            "not_a_library.so": "not a loadable shared library",
        ]
    }

    func testEachBrokenModuleYieldsExactlyOneFailureNamingItsFileAndReason() throws {
        let dir = try Self.modules.get()
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let logs = handler
        func messages(at level: Logger.Level) -> [String] {
            logs.entries.filter { $0.level == level }.map(\.message.description)
        }
        let catalog = ModuleLoader(logger: Logger(label: "modalwatch.tests") { _ in logs })
            .load(directories: [dir], includeBuiltins: false)
        let expected = expectations(dir)
        XCTAssertEqual(
            catalog.failures.count,
            expected.count,
            catalog.failures.map(\.description).joined(separator: "\n")
        )
        for (file, reason) in expected {
            let path = dir + "/" + file
            let failures = catalog.failures.filter { $0.path == path }
            XCTAssertEqual(failures.count, 1, "\(file): \(failures.map(\.description))")
            guard let failure = failures.first else { continue }
            XCTAssertTrue(failure.description.hasPrefix(path + ": "), failure.description)
            XCTAssertTrue(failure.description.contains(reason), "\(failure.description)\n does not say: \(reason)")
            XCTAssertFalse(failure.description.contains("\n"), "one line")
        }
        // The message is constant; the file and the reason go in the metadata (path, error).
        XCTAssertEqual(
            messages(at: .error),
            Array(repeating: "rule module not loaded", count: catalog.failures.count),
            "each failure is logged once"
        )

        XCTAssertEqual(catalog.modules.map(\.name), ["across_a", "probe"], "the good modules still load")
        XCTAssertEqual(messages(at: .info).count, 2)
        XCTAssertNotNil(catalog.rule(id: "shared-rule"))
        XCTAssertNil(catalog.rule(id: "own-rule"), "a refused module contributes no rule")
        XCTAssertNil(catalog.rule(id: "fine-rule"))
    }

    func testTheFailureReasonsAreTyped() throws {
        let dir = try Self.modules.get()
        let catalog = loadModules(dir)
        func reason(_ file: String) -> ModuleLoadError.Reason? {
            catalog.failures.first { $0.path == dir + "/" + file }?.reason
        }
        XCTAssertEqual(
            reason("bad_major.so"),
            .incompatibleABI(major: 2, minor: 0, hostMajor: 1, hostMinor: ModuleLoader.hostABI.minor)
        )
        XCTAssertEqual(
            reason("bad_minor.so"),
            .incompatibleABI(
                major: 1,
                minor: ModuleLoader.hostABI.minor + 1,
                hostMajor: 1,
                hostMinor: ModuleLoader.hostABI.minor
            )
        )
        XCTAssertEqual(reason("no_entry.so"), .missingEntrySymbol)
        XCTAssertEqual(reason("null_entry.so"), .nullDescription)
        XCTAssertEqual(reason("dup_across_b.so"), .duplicateRuleID("shared-rule", firstIn: dir + "/dup_across_a.so"))
        XCTAssertEqual(
            reason("dup_module_name.so"),
            .duplicateModuleName("across_a", firstIn: dir + "/dup_across_a.so")
        )
        XCTAssertEqual(
            reason("dup_rule_inside.so"),
            .duplicateRuleID("twice-rule", firstIn: dir + "/dup_rule_inside.so")
        )
        if case .notASharedLibrary = reason("not_a_library.so") {
        } else {
            XCTFail("not_a_library.so: \(String(describing: reason("not_a_library.so")))")
        }
        for file in ["bad_default.so", "bad_editions.so", "bad_id.so", "bad_null_on_event.so", "bad_severity.so"] {
            if case .badMetadata = reason(file) {} else { XCTFail("\(file): \(String(describing: reason(file)))") }
        }
    }

    func testTheVersionIsCheckedBeforeAnythingElse() throws {
        // bad_major's description has garbage where name, version and rules would be: reading any of
        // them would crash. It must be refused on its version alone.
        let dir = try Self.modules.get()
        var catalog = RuleCatalog()
        ModuleLoader(logger: silentLogger).load(path: dir + "/bad_major.so", into: &catalog)
        XCTAssertEqual(catalog.modules.count, 0)
        XCTAssertEqual(
            catalog.failures.map(\.reason),
            [.incompatibleABI(major: 2, minor: 0, hostMajor: 1, hostMinor: ModuleLoader.hostABI.minor)]
        )
        XCTAssertTrue(catalog.failures.first?.description.contains("rebuild the module") ?? false)
    }

    func testTheProbeModuleIsReadFieldByField() throws {
        let catalog = loadModules(try Self.modules.get())
        let probe = try XCTUnwrap(catalog.modules.first { $0.name == "probe" })
        XCTAssertEqual(probe.version, "0.1.0")
        XCTAssertEqual(probe.abiMajor, 1)
        XCTAssertEqual(probe.abiMinor, ModuleLoader.hostABI.minor, "built against this header")
        XCTAssertEqual(
            probe.rules.map(\.id),
            [
                "probe-view", "probe-subject", "probe-window", "probe-session", "probe-key", "probe-app-value",
                "probe-every", "probe-counter", "probe-counter-twin", "probe-window-push", "probe-edition",
                "probe-threshold",
            ]
        )
        XCTAssertEqual(probe.rules.map(\.index), Array(0..<12))
        XCTAssertEqual(
            probe.rules.map(\.fire),
            [
                .everyTime, .oncePerSubject, .oncePerWindow, .oncePerSession, .oncePerKey, .oncePerAppValue,
                .everyTime, .everyTime, .everyTime, .everyTime, .everyTime, .everyTime,
            ]
        )
        XCTAssertTrue(probe.rules.allSatisfy { $0.module == "probe" })

        let window = try XCTUnwrap(catalog.rule(id: "probe-window"))
        XCTAssertEqual(
            window.parameters,
            [
                RuleParameter(
                    name: "quiet",
                    kind: .durationMs,
                    defaultValue: 1000,
                    minimum: 0,
                    maximum: 3_600_000,
                    meaning: "how long to stay quiet after firing"
                )
            ]
        )
        XCTAssertEqual(window.severity, .warning)
        XCTAssertEqual(window.editions, [.edition2009, .ios7, .current])
        XCTAssertEqual(window.summary, "reports every alert, then stays quiet")
        XCTAssertEqual(window.guideline, "Minimize alerts")
        XCTAssertEqual(window.source, "current: Alerts")
        XCTAssertEqual(window.examples.count, 2)
        XCTAssertEqual(window.examples.first?.expected, 2)
        XCTAssertTrue(window.wants(eventType: 7), "alert.presented")
        XCTAssertFalse(window.wants(eventType: 8))

        let edition = try XCTUnwrap(catalog.rule(id: "probe-edition"))
        XCTAssertEqual(edition.editions, [.edition2009])
        XCTAssertTrue(edition.applies(in: .edition2009))
        XCTAssertFalse(edition.applies(in: .current))
        XCTAssertEqual(edition.examples.map(\.editions), [[.edition2009], [.ios7, .current]])
        XCTAssertEqual(catalog.rule(id: "probe-session")?.severity, .error)
        XCTAssertEqual(catalog.rule(id: "probe-subject")?.rev, 2)
        XCTAssertEqual(catalog.rule(id: "probe-window-push")?.parameters.map(\.kind), [.durationMs, .int])
    }

    func testTheSameModuleTwiceIsRefusedTheSecondTime() throws {
        let dir = try Self.modules.get()
        var catalog = RuleCatalog()
        let loader = ModuleLoader(logger: silentLogger)
        loader.load(path: dir + "/probe.so", into: &catalog)
        loader.load(path: dir + "/probe.so", into: &catalog)
        XCTAssertEqual(catalog.modules.count, 1)
        XCTAssertEqual(catalog.failures.map(\.reason), [.duplicateModuleName("probe", firstIn: dir + "/probe.so")])
    }

    func testAMissingDirectoryIsOneFailureNamingIt() throws {
        let missing = "/nonexistent/modalwatch-rules-\(getpid())"
        let catalog = ModuleLoader(logger: silentLogger).load(directories: [missing], includeBuiltins: false)
        XCTAssertEqual(catalog.modules.count, 0)
        XCTAssertEqual(catalog.failures.count, 1)
        XCTAssertEqual(catalog.failures.first?.path, missing)
        XCTAssertTrue(catalog.failures.first?.description.hasPrefix(missing + ": cannot read rules directory") ?? false)
    }
}

/// A module built against an older minor of the same major loads and runs.
final class OlderMinorModuleTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "older-minor", fixtures: ["old_minor"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    func testAModuleBuiltAgainstMinorZeroLoads() throws {
        let catalog = loadModules(try Self.modules.get())
        XCTAssertEqual(catalog.failures, [])
        let module = try XCTUnwrap(catalog.modules.first)
        XCTAssertEqual(module.name, "older_minor")
        XCTAssertEqual(module.abiMinor, 0)
        XCTAssertEqual(module.rules.map(\.id), ["old-minor-rule"])
    }
}

/// A logger that drops everything.
private let silentLogger = Logger(label: "modalwatch.tests") { _ in SwiftLogNoOpLogHandler() }

/// The modules of `directory` (no built-in rules), loaded with a silent logger.
private func loadModules(_ directory: String) -> RuleCatalog {
    ModuleLoader(logger: silentLogger).load(directories: [directory], includeBuiltins: false)
}
