import Foundation
import InMemoryLogging
import Logging
import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// ABI 1.2 through the real loader and engine: `on_init` with the module's settings and its
/// state in every call, `on_destroy` when the catalog goes, the log, module errors, parameters
/// by name; and a 1.0 module loaded next to it, unchanged.
final class ModuleStateTests: XCTestCase {
    private static let modules = ModuleCompiler.compileOnce(label: "state-v12", fixtures: ["state_v12", "old_minor"])
    override class func tearDown() { ModuleCompiler.remove(modules) }

    private let t0: Int64 = 1_700_000_000_000

    private func load(
        settings: [String: [(key: String, value: String)]],
        logs: InMemoryLogHandler = InMemoryLogHandler()
    ) throws -> RuleCatalog {
        var handler = logs
        handler.logLevel = .trace
        return ModuleLoader(logger: Logger(label: "modalwatch.tests") { _ in handler })
            .load(directories: [try Self.modules.get()], includeBuiltins: false, settings: settings)
    }

    private func messages(_ logs: InMemoryLogHandler, at level: Logger.Level) -> [String] {
        logs.entries.filter { $0.level == level }.map(\.message.description)
    }

    private func alert(_ id: String, _ ts: Int64, title: String, buttons: Int) -> String {
        let list = (0..<buttons).map { #"{"title":"B\#($0)"}"# }.joined(separator: ",")
        return Line.alert("S", ts, id, #""title":"\#(title)","buttons":[\#(list)]"#)
    }

    func testA10AndA12ModuleLoadSideBySide() throws {
        let catalog = try load(settings: [:])
        XCTAssertEqual(catalog.failures.map(\.description), [])
        let abi = Dictionary(uniqueKeysWithValues: catalog.modules.map { ($0.name, "\($0.abiMajor).\($0.abiMinor)") })
        XCTAssertEqual(abi, ["older_minor": "1.0", "state_v12": "1.2"])
        // the 1.0 module has no on_init: its state is its static mw_module.state (NULL)
        XCTAssertNil(catalog.modules.first { $0.name == "older_minor" }?.runtime.state)
        XCTAssertNotNil(catalog.modules.first { $0.name == "state_v12" }?.runtime.state)
    }

    func testInitGetsTheSettingsAndEveryCallTheState() throws {
        let logs = InMemoryLogHandler()
        let catalog = try load(settings: ["state_v12": [("broken_word", "kaboom")]], logs: logs)
        XCTAssertEqual(catalog.failures.map(\.description), [])
        XCTAssertEqual(messages(logs, at: .info).filter { $0 == "state_v12 ready" }.count, 1)
        let output = CollectingOutput()
        let pipeline = EventPipeline(catalog: catalog, configuration: .init(), output: output)
        for line in [
            Line.start("S", t0), alert("a1", t0 + 1, title: "boom", buttons: 1),
            alert("a2", t0 + 2, title: "kaboom", buttons: 1), alert("a3", t0 + 3, title: "fine", buttons: 2),
        ] {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 0) }
        }
        // "boom" is only the default word: the setting replaced it; "kaboom" is a module error, not a violation
        XCTAssertEqual(output.violations(of: "v12-few-buttons").map { $0.object["subject"] as? String }, ["a1"])
        XCTAssertEqual(output.diagnostics.map(\.reason), [.moduleError])
        XCTAssertEqual(output.diagnostics.first?.app, nil, "published on diag/-/module_error")
        XCTAssertEqual(output.diagnostics.first?.session, "S")
        XCTAssertEqual(
            output.diagnostics.first?.detail,
            "module state_v12, rule v12-few-buttons: cannot judge an alert titled with the broken word"
        )
        XCTAssertEqual(pipeline.engine.statistics.moduleErrors, 1)
        XCTAssertEqual(catalog.modules.first { $0.name == "state_v12" }?.runtime.errors, 1)
        let errors = logs.entries.filter { $0.level == .error && $0.message.description == "rule module error" }
        XCTAssertEqual(
            errors.map { $0.metadata["detail"]?.description },
            ["cannot judge an alert titled with the broken word"]
        )
        XCTAssertEqual(errors.first?.metadata["module"]?.description, "state_v12")
        XCTAssertEqual(errors.first?.metadata["rule"]?.description, "v12-few-buttons")
    }

    func testParametersAreFoundByNameWithTheConfigsValue() throws {
        let catalog = try load(settings: [:])
        var configuration = EngineConfiguration()
        configuration.rules["v12-few-buttons"] = .init(parameters: ["min_buttons": 3])
        let output = CollectingOutput()
        let pipeline = EventPipeline(catalog: catalog, configuration: configuration, output: output)
        for line in [
            Line.start("S", t0), alert("a1", t0 + 1, title: "two", buttons: 2),
            alert("a2", t0 + 2, title: "three", buttons: 3),
        ] {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 0) }
        }
        XCTAssertEqual(output.violations(of: "v12-few-buttons").map { $0.object["subject"] as? String }, ["a1"])
    }

    func testARefusedInitKeepsTheModuleOutWithItsReason() throws {
        let catalog = try load(settings: ["state_v12": [("broken_word", "")]])
        XCTAssertEqual(catalog.modules.map(\.name), ["older_minor"])
        XCTAssertEqual(catalog.failures.count, 1)
        XCTAssertEqual(
            catalog.failures.first?.reason,
            .initFailed(module: "state_v12", reason: "broken_word must be 1 to 63 bytes")
        )
    }

    func testTheStateIsDestroyedWhenTheLastCatalogGoes() throws {
        typealias Count = @convention(c) () -> Int32
        var destroyed: Count?
        do {
            let catalog = try load(settings: [:])
            // The module as the host loaded it: its private copy (a module is never unloaded).
            let file = try XCTUnwrap(catalog.modules.first { $0.name == "state_v12" }?.file)
            let handle = try XCTUnwrap(dlopen(file.loadPath, RTLD_NOW | RTLD_NOLOAD))
            destroyed = unsafeBitCast(try XCTUnwrap(dlsym(handle, "state_v12_destroyed")), to: Count.self)
            let copy = catalog
            XCTAssertEqual(copy.modules.count, 2)
            XCTAssertEqual(destroyed?(), 0)
        }
        XCTAssertEqual(destroyed?(), 1)
    }
}
