import ByteBasics
import ControlProtocol
import Foundation
import Logging
import ModalwatchConfig
import ModalwatchTesting
import XCTest
import ZeroMQ

@testable import DaemonCore

/// The control thread against a real `inproc` PAIR and a real `REP` socket, with this test as
/// the ingest side: a request sent the moment the control socket is bound reaches the ingest
/// side and is answered; `status` is answered from the published counters without it.
final class ControlThreadTests: XCTestCase {
    /// The ingest side's PAIR, as IngestResources makes it (bound before the thread starts), and the thread.
    private struct Sides {
        var context: ZMQContext
        var ingestSide: ZMQSocket
        var thread: ControlThread
        var client: ZMQSocket

        func close() {
            thread.finish(through: ingestSide)
            client.close()
            ingestSide.close()
            context.terminate()
        }
    }

    private func start(_ name: String) throws -> Sides {
        let folder = try TemporaryDirectory(prefix: "mw-control-thread").path
        let context = try ZMQContext()
        let endpoint = "inproc://control-thread-\(name)"
        let ingestSide = try ZMQSocket(context, type: .pair, linger: 0)
        try ingestSide.bind(endpoint)
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let settings = ControlThread.Settings(
            context: context,
            control: "ipc://\(folder)/control",
            configurationSource: { DaemonConfiguration() },
            reloadRefused: false,
            pair: endpoint,
            history: nil,
            shard: nil,
            shardPeers: [],
            logger: quiet
        )
        let thread = try ControlThread.start(settings)
        let client = try ZMQSocket(context, type: .req, linger: 0)
        try client.connect(thread.boundEndpoint)
        return Sides(context: context, ingestSide: ingestSide, thread: thread, client: client)
    }

    /// The reply the client gets within `timeoutMs`, as text; nil for none.
    private func reply(_ client: ZMQSocket, timeoutMs: Int) throws -> String? {
        let replies = ZMQPoller()
        _ = try replies.add(client)
        guard try replies.poll(timeout: timeoutMs) == 1, let answer = try client.receiveFrame(dontWait: true) else {
            return nil
        }
        return String(decoding: answer, as: UTF8.self)
    }

    func testARequestServedAtOnceRingsTheIngestSide() throws {
        let sides = try start("rules")
        defer { sides.close() }

        // A request at once, before the ingest side has looked at anything.
        XCTAssertTrue(try sides.client.send(Array(#"{"cmd":"rules"}"#.utf8)))

        let bells = ZMQPoller()
        _ = try bells.add(sides.ingestSide)
        XCTAssertEqual(try bells.poll(timeout: 5000), 1, "the job's bell did not reach the ingest side")
        XCTAssertEqual(try sides.ingestSide.receiveFrame(dontWait: true), [ControlExchange.Bell.posted.rawValue])
        let jobs = sides.thread.exchange.takeJobs()
        XCTAssertEqual(jobs.count, 1)
        guard case .rules? = jobs.first else { return XCTFail("not a rules job: \(jobs)") }
        sides.thread.exchange.post(.rules(RulesReply(edition: "ed-test", rules: [])))
        XCTAssertTrue(try sides.ingestSide.send([ControlExchange.Bell.posted.rawValue], flags: [.dontWait]))

        let text = try XCTUnwrap(try reply(sides.client, timeoutMs: 5000), "no reply to the request")
        XCTAssertTrue(text.contains(#""ok":true"#), text)
        XCTAssertTrue(text.contains(#""edition":"ed-test""#), text)
    }

    /// `status` is the published counters and the control thread's live parts: answered while
    /// the ingest side never looks at its PAIR, with no job posted for it.
    func testStatusIsAnsweredFromThePublishedCountersWithoutTheIngestSide() throws {
        let sides = try start("status")
        defer { sides.close() }
        var published = StatusReply()
        published[.eventsReceived] = 7
        published[.controlRequests] = 999
        published.edition = "ed-test"
        let started = PosixClock.monotonic.milliseconds() - 5000
        sides.thread.exchange.counters.publish(
            CounterSnapshot.Published(
                reply: published,
                startedMonotonicMs: started,
                publishedMonotonicMs: started + 4000,
                checkpointAtMs: nil
            )
        )

        for asked in 0..<3 {
            XCTAssertTrue(try sides.client.send(Array(#"{"cmd":"status"}"#.utf8)))
            let text = try XCTUnwrap(
                try reply(sides.client, timeoutMs: 5000),
                "no status reply while the ingest side is away"
            )
            let status = try ControlReply.decode(Array(text.utf8), as: StatusReply.self)
            XCTAssertEqual(status[.eventsReceived], 7, text)
            XCTAssertEqual(status.edition, "ed-test", text)
            // Live: the requests this thread answered before this one, not the published figure.
            XCTAssertEqual(status[.controlRequests], asked, text)
            XCTAssertGreaterThanOrEqual(status.uptimeSeconds, 5, text)
            // The counts' age, read live: published a second after the start's 5 s ago.
            XCTAssertGreaterThanOrEqual(status.countsAgeSeconds, 1, text)
            XCTAssertLessThan(status.countsAgeSeconds, status.uptimeSeconds, text)
        }
        XCTAssertTrue(sides.thread.exchange.takeJobs().isEmpty, "status posted a job for the ingest thread")
        XCTAssertNil(try sides.ingestSide.receiveFrame(dontWait: true), "status rang the ingest side")
    }

    /// Before the ingest loop's first publication (it publishes before READY), `status` waits for it.
    func testStatusBeforeTheFirstPublicationWaitsForIt() throws {
        let sides = try start("first")
        defer { sides.close() }
        XCTAssertTrue(try sides.client.send(Array(#"{"cmd":"status"}"#.utf8)))
        XCTAssertNil(try reply(sides.client, timeoutMs: 200), "status answered before any counters were published")
        var published = StatusReply()
        published[.eventsReceived] = 3
        sides.thread.exchange.counters.publish(
            CounterSnapshot.Published(
                reply: published,
                startedMonotonicMs: PosixClock.monotonic.milliseconds(),
                publishedMonotonicMs: PosixClock.monotonic.milliseconds(),
                checkpointAtMs: nil
            )
        )
        let text = try XCTUnwrap(try reply(sides.client, timeoutMs: 5000), "no status reply after the publication")
        XCTAssertTrue(text.contains(#""events_received":3"#), text)
    }
}
