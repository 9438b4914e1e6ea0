import Foundation
import Logging
import ModalwatchTesting
import Synchronization
import XCTest
import ZeroMQ

@testable import DaemonCore

/// The publishing thread's phases with real sockets and a real history file: it binds,
/// publishes what is handed over, and ends on `finish`.
final class PublishingThreadTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "publishing").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func settings(_ context: ZMQContext, publish: String = "tcp://127.0.0.1:*") -> PublishingThread.Settings {
        .forTest(context, historyPath: folder + "/history.sqlite", publish: publish)
    }

    func testPublishesEachBatchThenEndsOnFinish() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let publishing = try PublishingThread.start(settings(context))
        let subscriber = try ZMQSocket.testSubscriber(
            context,
            to: publishing.boundEndpoint,
            prefix: "diag/",
            timeoutMs: 5000,
            unbounded: false
        )
        defer { subscriber.close() }
        Thread.sleep(forTimeInterval: 0.3)  // the subscription reaches the PUB socket

        var batch = OutboundBatch()
        let topic = Array("diag/app/test".utf8)
        let payload = Array(#"{"v":1}"#.utf8)
        topic.withUnsafeBytes { t in payload.withUnsafeBytes { p in batch.appendDiagnostic(topic: t, payload: p) } }
        XCTAssertTrue(publishing.handOver.offer(batch))

        let received = try XCTUnwrap(subscriber.receiveMultipart())
        XCTAssertEqual(received.frames, [topic, payload])
        publishing.handOver.finish()
        publishing.join()
        XCTAssertEqual(publishing.statistics.diagnosticsPublished.load(ordering: .relaxed), 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/history.sqlite"))
    }

    func testEndsOnFinishWithNothingHandedOver() throws {
        let context = try ZMQContext()
        let publishing = try PublishingThread.start(settings(context))
        publishing.handOver.finish()
        publishing.join()  // returns: the sleeping thread was woken by finish
        context.terminate()
    }

    func testAPublishEndpointTakenFailsTheStartWithTheEndpointNamed() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let taken = try ZMQSocket(context, type: .pub)
        defer { taken.close() }
        try taken.bind("tcp://127.0.0.1:*")
        let endpoint = try taken.lastEndpoint
        XCTAssertThrowsError(try PublishingThread.start(settings(context, publish: endpoint))) { error in
            let failure = error as? DaemonError
            XCTAssertEqual(failure?.code, .endpoint)
            XCTAssertTrue(failure?.message.contains(endpoint) == true, failure?.message ?? "")
        }
    }
}
