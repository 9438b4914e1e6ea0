import Foundation
import Logging
import ModalwatchClient
import ShardRouting
import XCTest
import ZeroMQ

/// The client against a real `SUB` socket on loopback TCP, as a daemon subscribes.
final class ClientBatchingTests: XCTestCase {
    private var context: ZMQContext!
    private var subscriber: ZMQSocket!
    private var endpoint = ""

    override func setUpWithError() throws {
        context = try ZMQContext(ioThreads: 1)
        subscriber = try ZMQSocket(context, type: .sub, linger: 0)
        try subscriber.set(.receiveTimeout, 3000)
        try subscriber.bind("tcp://127.0.0.1:*")
        endpoint = try subscriber.lastEndpoint
    }

    override func tearDown() {
        subscriber.close()
        context.terminate()
    }

    private func client(_ adjust: (inout ClientConfiguration) -> Void = { _ in }) throws -> ModalwatchClient {
        var configuration = ClientConfiguration(endpoints: [endpoint])
        configuration.lingerMs = 1000
        adjust(&configuration)
        return try ModalwatchClient(configuration: configuration, logger: Logger(label: "test"))
    }

    private func waitForSubscription(_ client: ModalwatchClient, _ bucket: ShardBucket) {
        let deadline = Date().addingTimeInterval(10)
        while !client.hasSubscriber(for: bucket) && Date() < deadline {
            // libzmq attaches the new connection (and sends our subscriptions on it) only when
            // the socket's own thread calls into it, as a daemon's polling loop does.
            _ = try? subscriber.get(.events)
            usleep(1000)
        }
        XCTAssertTrue(client.hasSubscriber(for: bucket), "the subscription reached the client")
    }

    private func receive() throws -> (topic: String, lines: [String])? {
        guard let message = try subscriber.receiveMultipart(maxFrames: 4) else { return nil }
        XCTAssertEqual(message.frames.count, 2, "topic and payload")
        let lines = String(decoding: message.frames[1], as: UTF8.self).split(separator: "\n").map(String.init)
        return (String(decoding: message.frames[0], as: UTF8.self), lines)
    }

    func testBatchesBySizeWithTheShardTopicAndSeq() throws {
        try subscriber.subscribe("ui/67/")
        let client = try client {
            $0.maxBatchEvents = 4
            $0.maxBatchDelayMs = 1000
        }
        defer { client.close() }
        waitForSubscription(client, ShardBucket(0x67))
        let session = client.startSession(app: "com.example.mail", id: "S1", at: 1000)
        for n in 1...9 { session.send(.userAction(control: .button, label: "tap \(n)"), at: 1000 + Int64(n)) }
        var lines: [String] = []
        for expected in [4, 4] {
            let message = try XCTUnwrap(try receive())
            XCTAssertEqual(message.topic, "ui/67/com.example.mail/S1")
            XCTAssertEqual(message.lines.count, expected)
            lines += message.lines
        }
        client.close()
        let last = try XCTUnwrap(try receive(), "closing sends the last partial batch")
        XCTAssertEqual(last.lines.count, 2)
        lines += last.lines
        XCTAssertTrue(lines[0].contains(#""type":"session.start""#) && lines[0].contains(#""seq":1"#), lines[0])
        XCTAssertTrue(lines[9].contains(#""seq":10"#) && lines[9].contains(#""ts":1009"#), lines[9])
        XCTAssertEqual(client.statistics.eventsSent, 10)
        XCTAssertEqual(client.statistics.messagesSent, 3)
    }

    func testBatchesByTime() throws {
        try subscriber.subscribe("")
        let client = try client {
            $0.maxBatchEvents = 64
            $0.maxBatchDelayMs = 40
        }
        defer { client.close() }
        waitForSubscription(client, ShardBucket(0x67))
        let started = Date()
        let session = client.startSession(app: "com.example.mail", id: "S2")
        session.send(.appBackground)
        session.send(.appForeground)
        let message = try XCTUnwrap(try receive())
        let waited = Date().timeIntervalSince(started)
        XCTAssertEqual(message.lines.count, 3, "one message once the delay passed")
        XCTAssertGreaterThanOrEqual(waited, 0.035)
        XCTAssertLessThan(waited, 1.5)
    }

    func testOneBucketPerBatchAndTsNeverGoesBack() throws {
        try subscriber.subscribe("")
        let client = try client { $0.maxBatchDelayMs = 30 }
        defer { client.close() }
        waitForSubscription(client, ShardBucket(0xf5))
        let mail = client.startSession(app: "com.example.mail", id: "M", at: 2000)
        let photos = client.startSession(app: "com.example.photos", id: "P", at: 2000)
        mail.send(.navPush(screen: "a"), at: 1500)
        photos.send(.navPush(screen: "b"))
        var topics: [String: [String]] = [:]
        for _ in 0..<2 {
            let message = try XCTUnwrap(try receive())
            topics[message.topic] = message.lines
        }
        XCTAssertEqual(Set(topics.keys), ["ui/67/com.example.mail/M", "ui/f5/com.example.photos/P"])
        XCTAssertTrue(
            topics["ui/67/com.example.mail/M"]![1].contains(#""ts":2000"#),
            "an earlier ts is raised to the session's latest"
        )
    }

    func testEventsOfBucketsNobodySubscribesAreCountedNotSent() throws {
        try subscriber.subscribe("ui/67/")
        let client = try client { $0.maxBatchDelayMs = 5 }
        defer { client.close() }
        waitForSubscription(client, ShardBucket(0x67))
        let photos = client.startSession(app: "com.example.photos", id: "P")  // bucket f5: nobody
        photos.send(.appBackground)
        let mail = client.startSession(app: "com.example.mail", id: "M")
        mail.send(.appBackground)
        let message = try XCTUnwrap(try receive())
        XCTAssertEqual(message.topic, "ui/67/com.example.mail/M")
        client.close()
        let statistics = client.statistics
        XCTAssertEqual(statistics.eventsDroppedNoSubscriber, 2)
        XCTAssertEqual(statistics.eventsSent, 2)
        XCTAssertEqual(statistics.eventsQueued, 4)
        XCTAssertEqual(statistics.bucketsSubscribed, 1)
    }

    func testAClosedClientRefusesAndCounts() throws {
        let client = try client()
        client.close()
        let session = client.startSession(app: "a", id: "x")
        XCTAssertFalse(session.send(.appBackground))
        XCTAssertFalse(session.send(.appForeground))
        XCTAssertEqual(client.statistics.eventsDroppedQueueFull, 3, "the start and two events")
        XCTAssertEqual(client.statistics.eventsQueued, 0)
        XCTAssertEqual(session.lastSeq, 3, "a dropped event still takes its seq, so a daemon counts the gap")
    }

    func testABoundedQueueNeverBlocksTheCaller() throws {
        // Nobody subscribes, the queue holds 100: a burst of 10,000 returns at once, and counts.
        let client = try client {
            $0.queueCapacity = 100
            $0.maxBatchDelayMs = 1000
        }
        defer { client.close() }
        let session = client.startSession(app: "a", id: "burst")
        var refused = 0
        var sent = 0
        // Bursts until the queue has refused some: the sender thread drains it meanwhile, and on a
        // quiet machine it can keep pace with one burst (CI saw a burst of 10,000 refused none).
        for _ in 0..<100 where refused == 0 {
            let started = Date()
            for _ in 0..<10_000 where !session.send(.appBackground) { refused += 1 }
            sent += 10_000
            XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        }
        XCTAssertGreaterThan(refused, 0)
        XCTAssertEqual(client.statistics.eventsDroppedQueueFull, UInt64(refused))
        XCTAssertEqual(client.statistics.eventsQueued + UInt64(refused), UInt64(sent) + 1)
    }
}
