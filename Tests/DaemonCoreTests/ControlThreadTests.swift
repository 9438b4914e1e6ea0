import ControlProtocol
@testable import DaemonCore
import Foundation
import Logging
import ModalwatchConfig
import ModalwatchTesting
import XCTest
import ZeroMQ

/// The control thread against a real `inproc` PAIR and a real `REP` socket, with this test as
/// the ingest side: a request sent the moment the control socket is bound reaches the ingest
/// side and is answered.
final class ControlThreadTests: XCTestCase {
    func testARequestServedAtOnceRingsTheIngestSide() throws {
        let folder = try TemporaryDirectory(prefix: "mw-control-thread").path
        let context = try ZMQContext()
        defer { context.terminate() }
        let endpoint = "inproc://control-thread-test"
        // The ingest side, as IngestResources makes it: its PAIR bound before the thread starts.
        let ingestSide = try ZMQSocket(context, type: .pair, linger: 0)
        defer { ingestSide.close() }
        try ingestSide.bind(endpoint)
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let settings = ControlThread.Settings(
            context: context, control: "ipc://\(folder)/control", configurationSource: { DaemonConfiguration() },
            reloadRefused: false, pair: endpoint, history: nil, shard: nil, shardPeers: [], logger: quiet)
        let thread = try ControlThread.start(settings)

        // A request at once, before the ingest side has looked at anything.
        let client = try ZMQSocket(context, type: .req, linger: 0)
        defer { client.close() }
        try client.connect(thread.boundEndpoint)
        XCTAssertTrue(try client.send(Array(#"{"cmd":"status"}"#.utf8)))

        let bells = ZMQPoller()
        _ = try bells.add(ingestSide)
        XCTAssertEqual(try bells.poll(timeout: 5000), 1, "the job's bell did not reach the ingest side")
        XCTAssertEqual(try ingestSide.receiveFrame(dontWait: true), [ControlExchange.Bell.posted.rawValue])
        let jobs = thread.exchange.takeJobs()
        XCTAssertEqual(jobs.count, 1)
        guard case .status? = jobs.first else { return XCTFail("not a status job: \(jobs)") }
        var reply = StatusReply()
        reply[.eventsReceived] = 7
        thread.exchange.post(.status(reply))
        XCTAssertTrue(try ingestSide.send([ControlExchange.Bell.posted.rawValue], flags: [.dontWait]))

        let replies = ZMQPoller()
        _ = try replies.add(client)
        XCTAssertEqual(try replies.poll(timeout: 5000), 1, "no reply to the request")
        let answer = try XCTUnwrap(client.receiveFrame(dontWait: true))
        let text = String(decoding: answer, as: UTF8.self)
        XCTAssertTrue(text.contains(#""ok":true"#), text)
        XCTAssertTrue(text.contains(#""events_received":7"#), text)

        thread.finish(through: ingestSide)
    }
}
