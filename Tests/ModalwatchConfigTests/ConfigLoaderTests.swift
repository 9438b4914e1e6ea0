import Foundation
import Logging
import ModalwatchConfig
import RuleHost
import SessionEngine
import XCTest

/// The configuration loader: defaults from one place, and every error naming the file, the line and the key.
final class ConfigLoaderTests: XCTestCase {
    private let loader = ConfigLoader(catalog: RuleCatalog())

    private func errors(_ text: String, file: String = "test.yaml") -> [ConfigError] {
        do {
            _ = try loader.parse(text, file: file)
            return []
        } catch {
            return error.errors
        }
    }

    func testTheUnknownKeyErrorNamesEveryKeyTheLoaderReadsAndOnlyThose() throws {
        let unknown = try XCTUnwrap(errors("no_such_key: 1\n").first)
        XCTAssertEqual(unknown.key, "no_such_key")
        let prefix = "unknown key; known keys are "
        XCTAssertTrue(unknown.message.hasPrefix(prefix), unknown.message)
        let named = unknown.message.dropFirst(prefix.count).components(separatedBy: ", ")
        XCTAssertEqual(named.count, 29)
        XCTAssertEqual(Set(named).count, named.count, "each key named once")
        for key in named {
            // A value of the wrong shape for every key: an error about the value, never an unknown key.
            let found = errors("\(key): [[]]\n")
            XCTAssertFalse(found.contains { $0.message.hasPrefix("unknown key") }, "\(key): \(found)")
        }
    }

    func testAYAMLAliasIsRefusedBeforeAnyTreeIsBuilt() throws {
        // 40 nested aliases as a mapping key: 2^40 nodes by reference, in under 1 KB.
        var text = "a0: &a0 [x, x]\n"
        for i in 1..<40 { text += "a\(i): &a\(i) [*a\(i - 1), *a\(i - 1)]\n" }
        text += "? *a39\n: 1\n"
        let found = errors(text)
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.line, 2)
        XCTAssertTrue(found.first?.message.contains("alias") ?? false, "\(found)")
        // An anchor alone, and a `*` inside a scalar, are no alias.
        XCTAssertTrue(
            errors("edition: &e current\nlog_level: \"*info\"\n").allSatisfy { !$0.message.contains("alias") }
        )
    }

    func testDropInsMergeOverTheMainFileInNameOrderAndErrorsNameTheirFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mw-dropins-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let main = folder + "/modalwatchd.yaml"
        try FileManager.default.createDirectory(atPath: main + ".d", withIntermediateDirectories: true)
        try "edition: ios7\nevents: [tcp://127.0.0.1:7450]\nhistory:\n  max_rows: 100\n  max_age: 1d\n".write(
            toFile: main,
            atomically: true,
            encoding: .utf8
        )
        try "events: [tcp://127.0.0.1:7460, tcp://127.0.0.1:7461]\nhistory:\n  max_rows: 200\n".write(
            toFile: main + ".d/10-local.yaml",
            atomically: true,
            encoding: .utf8
        )
        try "history:\n  max_rows: 300\n".write(toFile: main + ".d/20-later.yaml", atomically: true, encoding: .utf8)
        try "history: { max_rows: 999 }\n".write(toFile: main + ".d/notes.txt", atomically: true, encoding: .utf8)
        let configuration = try loader.load(path: main)
        XCTAssertEqual(configuration.engine.defaultEdition.name, "ios7", "kept from the main file")
        XCTAssertEqual(
            configuration.events,
            ["tcp://127.0.0.1:7460", "tcp://127.0.0.1:7461"],
            "a list is replaced whole"
        )
        XCTAssertEqual(configuration.historyMaxRows, 300, "the later drop-in wins; only *.yaml is read")
        XCTAssertEqual(configuration.historyMaxAgeMs, 86_400_000, "mappings merge key by key")
        XCTAssertEqual(ConfigLoader.files(path: main), [main, main + ".d/10-local.yaml", main + ".d/20-later.yaml"])

        try "history:\n  max_rows: lots\n".write(toFile: main + ".d/30-bad.yaml", atomically: true, encoding: .utf8)
        do {
            _ = try loader.load(path: main)
            XCTFail("a bad value in a drop-in is refused")
        } catch {
            XCTAssertEqual(error.errors.first?.file, main + ".d/30-bad.yaml")
            XCTAssertEqual(error.errors.first?.line, 2)
            XCTAssertEqual(error.errors.first?.key, "history.max_rows")
        }
    }

    func testADuplicateKeyNamesTheLinesOfBoth() throws {
        let found = errors("edition: current\nhistory:\n  max_rows: 5\nevents: []\nhistory:\n  store: postgresql\n")
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.key, "history")
        XCTAssertEqual(found.first?.line, 2)
        XCTAssertTrue(found.first?.message.contains("at lines 2, 5") ?? false, found.first?.message ?? "")
    }

    func testADuplicateKeyThatIsNotAPlainStringIsStillNamedWithItsLine() throws {
        let empty = errors("edition: current\n\"\": 1\n\"\": 2\n")
        XCTAssertEqual(empty.first?.key, "(an empty key)")
        XCTAssertEqual(empty.first?.line, 2)
        XCTAssertTrue(empty.first?.message.contains("at lines 2, 3") ?? false, empty.first?.message ?? "")
        let complex = errors("? [a]\n: 1\n? [a]\n: 2\n")
        XCTAssertEqual(complex.first?.key, "(a key that is not a plain string)")
        XCTAssertGreaterThanOrEqual(complex.first?.line ?? 0, 1)
    }

    func testAnEmptyFileGivesTheDefaultEndpoints() throws {
        let configuration = try loader.parse("", file: "empty.yaml")
        XCTAssertEqual(configuration.events, [DefaultEndpoints.events])
        XCTAssertEqual(configuration.publish, DefaultEndpoints.publish)
        XCTAssertEqual(configuration.control, DefaultEndpoints.control)
        XCTAssertEqual(DaemonConfiguration().control, "tcp://127.0.0.1:7452", "the documented default (interfaces.md)")
    }

    func testTheHistoryGroupAndWALLimitAreReadAndChecked() throws {
        let configuration = try loader.parse("history: { group: modalwatch, wal_limit: 8388608 }\n", file: "h.yaml")
        XCTAssertEqual(configuration.stateGroup, "modalwatch")
        XCTAssertEqual(configuration.historyWALLimitBytes, 8 << 20)
        XCTAssertNil(DaemonConfiguration().stateGroup, "the state directory is the daemon's user's alone by default")
        XCTAssertEqual(errors("history: { group: 'a b' }\n").map(\.key), ["history.group"])
        XCTAssertEqual(errors("history: { group: '' }\n").map(\.key), ["history.group"])
        XCTAssertEqual(errors("history: { wal_limit: 10 }\n").map(\.key), ["history.wal_limit"])
    }

    func testThePostgreSQLStoreNeedsItsConnectionStringAndTheOtherWayRound() throws {
        let configuration = try loader.parse(
            "history: { store: postgresql, postgresql: 'host=/run/postgresql dbname=modalwatch' }\n",
            file: "pg.yaml"
        )
        XCTAssertEqual(configuration.historyPostgreSQL, "host=/run/postgresql dbname=modalwatch")
        XCTAssertNil(try loader.parse("history: { store: sqlite }\n", file: "s.yaml").historyPostgreSQL)
        XCTAssertNil(DaemonConfiguration().historyPostgreSQL, "SQLite in the state directory by default")
        XCTAssertEqual(errors("history: { store: postgresql }\n").map(\.key), ["history.store"])
        XCTAssertEqual(errors("history: { postgresql: 'dbname=x' }\n").map(\.key), ["history.postgresql"])
        XCTAssertEqual(
            errors("history: { store: sqlite, postgresql: 'dbname=x' }\n").map(\.key),
            ["history.postgresql"]
        )
        XCTAssertEqual(errors("history: { store: mysql }\n").map(\.key), ["history.store"])
        XCTAssertEqual(
            errors("history: { store: postgresql, postgresql: '  ' }\n").map(\.key),
            ["history.postgresql", "history.store"]
        )
    }

    func testValuesAreRead() throws {
        let configuration = try loader.parse(
            """
            events: [ipc:///tmp/a, tcp://0.0.0.0:9000]
            control: ipc:///run/modalwatch/control
            control_allow_reload_over_tcp: true
            max_sessions: 10
            """,
            file: "ok.yaml"
        )
        XCTAssertEqual(configuration.events, ["ipc:///tmp/a", "tcp://0.0.0.0:9000"])
        XCTAssertEqual(configuration.control, "ipc:///run/modalwatch/control")
        XCTAssertTrue(configuration.controlAllowReloadOverTCP)
        XCTAssertEqual(configuration.publish, DefaultEndpoints.publish)
    }

    func testEveryErrorNamesTheFileTheLineAndTheKey() {
        let found = errors(
            """
            edition: current
            log_level: loud
            max_sessions: -1
            unknown_key: 1
            session_idle_timeout: 10 parsecs
            """
        )
        let expected: [(line: Int, key: String)] = [
            (2, "log_level"), (3, "max_sessions"), (4, "unknown_key"), (5, "session_idle_timeout"),
        ]
        XCTAssertEqual(found.count, expected.count, found.map(\.description).joined(separator: "\n"))
        for (line, key) in expected {
            let error = found.first { $0.key == key }
            XCTAssertEqual(error?.file, "test.yaml", key)
            XCTAssertEqual(error?.line, line, key)
            XCTAssertEqual(error?.description.hasPrefix("test.yaml:\(line): \(key): "), true, error?.description ?? key)
            XCTAssertEqual(error?.description.contains("\n"), false, "one line")
        }
    }

    func testYAMLThatDoesNotParseIsOneErrorWithItsLine() {
        let found = errors("edition: current\nevents: [a, b\n", file: "broken.yaml")
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.file, "broken.yaml")
        XCTAssertEqual(found.first?.message.hasPrefix("not valid YAML"), true, found.first?.message ?? "")
        XCTAssertGreaterThan(found.first?.line ?? 0, 0)
    }

    func testAFileThatCannotBeReadIsNamed() {
        XCTAssertThrowsError(try loader.load(path: "/nonexistent/modalwatchd.yaml")) { error in
            let errors = (error as? ConfigErrors)?.errors ?? []
            XCTAssertEqual(errors.first?.file, "/nonexistent/modalwatchd.yaml")
            XCTAssertEqual(
                errors.first?.description.hasPrefix("/nonexistent/modalwatchd.yaml: cannot read the file"),
                true
            )
        }
    }

    /// `--config /dev/null`: a device reads as what it gives, nothing, so the defaults.
    func testDevNullIsAnEmptyConfiguration() throws {
        XCTAssertEqual(try loader.load(path: "/dev/null").events, [DefaultEndpoints.events])
    }

    /// A file past 1 MiB is refused at once in one line, `/dev/zero` (endless) too: a parse's
    /// time is bounded by the file's.
    func testAFilePastOneMiBIsRefusedAndDevZeroIsNotReadForever() throws {
        let path = NSTemporaryDirectory() + "mw-large-\(getpid()).yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1).write(to: URL(fileURLWithPath: path))
        for file in [path, "/dev/zero"] {
            XCTAssertThrowsError(try loader.load(path: file)) { error in
                let errors = (error as? ConfigErrors)?.errors ?? []
                XCTAssertEqual(
                    errors.map(\.description),
                    ["\(file): the file holds more than 1048576 bytes; a configuration is far smaller"]
                )
            }
        }
        try Data(repeating: UInt8(ascii: "#"), count: 1 << 20).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try loader.load(path: path).events, [DefaultEndpoints.events], "1 MiB exactly is read")
    }

    /// `module_load_timeout` is read with the rest and, before the modules load, on its own.
    func testTheModuleLoadTimeoutIsReadAndPeeked() throws {
        XCTAssertEqual(try loader.parse("module_load_timeout: 2s\n", file: "t.yaml").moduleLoadTimeoutMs, 2000)
        XCTAssertEqual(try loader.parse("", file: "t.yaml").moduleLoadTimeoutMs, 5000)
        XCTAssertEqual(errors("module_load_timeout: 20ms\n").map(\.key), ["module_load_timeout"])
        let path = NSTemporaryDirectory() + "peek-\(getpid()).yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "module_load_timeout: 1500ms\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigLoader.peekModuleLoadTimeout(path: path), 1500)
        try "module_load_timeout: 5\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNil(ConfigLoader.peekModuleLoadTimeout(path: path))
    }

    /// The configuration that ships (config/modalwatchd.yaml) loads with the built-in modules.
    func testTheShippedConfigurationLoads() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let catalog = ModuleLoader(logger: logger).load(directories: [])
        try XCTSkipIf(catalog.modules.isEmpty, "the built-in modules are not next to the test binary")
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/modalwatchd.yaml").path
        let configuration = try ConfigLoader(catalog: catalog).load(path: path)
        XCTAssertEqual(configuration.control, DefaultEndpoints.control)
    }

    func testCheckpointIntervalIsADurationFromOneSecondToOneHour() throws {
        XCTAssertEqual(try loader.parse("checkpoint_interval: 2s\n", file: "test.yaml").checkpointIntervalMs, 2000)
        XCTAssertEqual(try loader.parse("edition: current\n", file: "test.yaml").checkpointIntervalMs, 5000)
        for bad in ["500ms", "2h", "-1s", "often"] {
            XCTAssertEqual(errors("checkpoint_interval: \(bad)\n").first?.key, "checkpoint_interval", bad)
        }
    }
}
