import Foundation
import Logging
import ModalwatchConfig
import ModalwatchTesting
import RuleHost
import Synchronization
import XCTest
import ZeroMQ

@testable import DaemonCore

/// The ingest loop's phases with real sockets, a real state directory and a real thread:
/// it opens, runs, drains on a stop, writes its last checkpoint and closes; a failed start
/// closes what it opened and returns the error instead of hanging.
final class IngestLoopPhaseTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "mw-loop").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func configuration() -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        configuration.events = ["ipc://\(folder)/events"]
        configuration.publish = "ipc://\(folder)/publish"
        configuration.control = "ipc://\(folder)/control"
        configuration.stateDirectory = folder + "/state"
        configuration.metrics = nil
        return configuration
    }

    private func settings(_ configuration: DaemonConfiguration, _ wakeup: Wakeup) -> IngestLoop.Settings {
        IngestLoop.Settings(
            configuration: configuration,
            catalog: RuleCatalog(),
            wakeup: wakeup,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
            notifier: SystemdNotifier(environment: [:]),
            configurationSource: { configuration }
        )
    }

    /// How `run` returned.
    private final class Outcome: Sendable {
        let error = Mutex<DaemonError?>(nil)
    }

    /// Runs the loop on a thread of its own; `ended` is signalled when `run` returns.
    private func start(_ settings: IngestLoop.Settings, ready: DispatchSemaphore, ended: DispatchSemaphore) -> Outcome {
        let outcome = Outcome()
        let thread = Thread {
            do throws(DaemonError) {
                try Daemon.run(settings) { _ in ready.signal() }
            } catch let failure {
                outcome.error.withLock { $0 = failure }
            }
            ended.signal()
        }
        thread.start()
        return outcome
    }

    func testRunsUntilAStopThenDrainsWritesTheLastCheckpointAndCloses() throws {
        let configuration = configuration()
        let wakeup = try Wakeup()
        let ready = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let outcome = start(settings(configuration, wakeup), ready: ready, ended: ended)
        XCTAssertEqual(ready.wait(timeout: .now() + 30), .success, "the loop opened its sockets")

        // The control socket answers while running.
        let context = try ZMQContext()
        defer { context.terminate() }
        let control = try ZMQSocket(context, type: .req)
        defer { control.close() }
        try control.set(.receiveTimeout, 10_000)
        try control.connect(configuration.control)
        XCTAssertTrue(try control.send(#"{"cmd":"status"}"#))
        let reply = try XCTUnwrap(control.receiveFrame())
        XCTAssertTrue(String(decoding: reply, as: UTF8.self).contains("\"events_received\""))

        wakeup.request(.stop)
        XCTAssertEqual(ended.wait(timeout: .now() + 30), .success, "the loop stopped and closed")
        XCTAssertNil(outcome.error.withLock { $0 })
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: folder + "/state/" + CheckpointFile.fileName),
            "stopping wrote the last checkpoint"
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/state/" + CheckpointFile.fileName + ".tmp"))
    }

    func testAFailedStartClosesWhatItOpenedAndReportsTheEndpoint() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        var configuration = configuration()
        let taken = try ZMQSocket(context, type: .rep)
        defer { taken.close() }
        try taken.bind("tcp://127.0.0.1:*")
        configuration.control = try taken.lastEndpoint  // taken: the start fails after the publishing thread began

        let ready = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let outcome = start(settings(configuration, try Wakeup()), ready: ready, ended: ended)
        XCTAssertEqual(ended.wait(timeout: .now() + 30), .success, "a failed start returns instead of hanging")
        XCTAssertEqual(ready.wait(timeout: .now()), .timedOut, "never ready")
        let failure = try XCTUnwrap(outcome.error.withLock { $0 })
        XCTAssertEqual(failure.code, .endpoint)
        XCTAssertTrue(failure.message.contains("cannot bind control"), failure.message)
    }
}
