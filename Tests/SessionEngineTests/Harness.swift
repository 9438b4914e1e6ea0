import EventDecoding
import Foundation
import Logging
import ModalwatchABI
import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// Rule modules loaded through the real loader, and a real `EventPipeline` (decoder + engine) over
/// them, fed NDJSON lines, with everything it emits collected.
final class Harness {
    /// What the loader loaded.
    let catalog: RuleCatalog
    /// Everything emitted.
    let output = CollectingOutput()
    /// The pipeline under test.
    let pipeline: EventPipeline
    /// The wall clock handed to the pipeline for `observed`; tests may change it.
    var observed: Int64 = 1_700_000_000_000

    /// The engine under test.
    var engine: Engine { pipeline.engine }

    /// Loads every module in the compiled directory (no built-ins) and builds a pipeline over them.
    /// Fails the test if a module does not load.
    init(
        modules: Result<String, ModuleCompiler.Failure>,
        configuration: EngineConfiguration = .init(),
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        catalog = Self.load(try modules.get())
        for failure in catalog.failures {
            XCTFail("module did not load: \(failure.description)", file: file, line: line)
        }
        pipeline = EventPipeline(catalog: catalog, configuration: configuration, output: output)
    }

    /// Loads the modules of `directory` through the real loader, logging nowhere.
    static func load(_ directory: String, logger: Logger = Harness.silentLogger) -> RuleCatalog {
        ModuleLoader(logger: logger).load(directories: [directory], includeBuiltins: false)
    }

    /// A logger that drops everything.
    static let silentLogger = Logger(label: "modalwatch.tests") { _ in SwiftLogNoOpLogHandler() }

    /// Sends each line as its own payload (as a daemon receives one event per message).
    func send(_ lines: String...) { send(lines) }

    /// Sends each line as its own payload.
    func send(_ lines: [String]) {
        for line in lines {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: observed) }
        }
    }

    /// Sends one event with its `ts` replaced by `ts` after decoding: a time the decoder refuses,
    /// as a session restored from an older daemon's snapshot may hold, straight to the engine.
    func sendPastTheDecoder(_ line: String, ts: Int64) {
        EventDecoder().decode(Array(line.utf8)) { item in
            guard case .event(let decoded) = item else { return XCTFail("\(line) was rejected") }
            var event = decoded.pointee
            event.ts = ts
            event.ts_sent = ts
            pipeline.engine.process(&event, observed: observed)
        }
    }

    /// Sends one payload: several events separated by newlines (a batch).
    func sendBatch(_ lines: [String]) {
        var bytes = Array(lines.joined(separator: "\n").utf8)
        bytes.withUnsafeMutableBytes { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: observed) }
    }

    /// The violations of one rule.
    func violations(of rule: String) -> [CollectingOutput.Violation] { output.violations(of: rule) }

    /// What `probe-view` saw, one per event it was called for.
    var views: [SessionView] { output.violations(of: "probe-view").map { SessionView($0.evidence) } }

    /// The latest view of `probe-view`, failing the test when there is none.
    func lastView(file: StaticString = #filePath, line: UInt = #line) throws -> SessionView {
        try XCTUnwrap(views.last, "probe-view was not called", file: file, line: line)
    }
}
