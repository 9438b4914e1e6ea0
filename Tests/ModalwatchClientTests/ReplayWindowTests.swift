import Foundation
import Logging
import ModalwatchClient
import ShardRouting
import XCTest
import ZeroMQ

/// The replay window against real `SUB` sockets on loopback TCP: a subscriber goes away (as a
/// daemon killed), events go on, a new subscriber binds the same endpoint (the daemon started
/// again) and gets the window's events, oldest first, before newer ones.
final class ReplayWindowTests: XCTestCase {
    private static let app = "com.example.mail"  // bucket 67
    private static let bucket = ShardBucket(0x67)
    private var context: ZMQContext!
    private var subscriber: ZMQSocket?
    private var endpoint = ""

    override func setUpWithError() throws {
        context = try ZMQContext(ioThreads: 1)
        let socket = try ZMQSocket(context, type: .sub, linger: 0)
        try socket.set(.receiveTimeout, 3000)
        try socket.subscribe("ui/67/")
        try socket.bind("tcp://127.0.0.1:*")
        endpoint = try socket.lastEndpoint
        subscriber = socket
    }

    override func tearDown() {
        subscriber?.close()
        context.terminate()
    }

    private func client(_ adjust: (inout ClientConfiguration) -> Void) throws -> ModalwatchClient {
        var configuration = ClientConfiguration(endpoints: [endpoint])
        configuration.lingerMs = 1000
        configuration.maxBatchDelayMs = 2
        adjust(&configuration)
        return try ModalwatchClient(configuration: configuration, logger: Logger(label: "test"))
    }

    /// Waits, bounded, for `condition`; keeps the subscriber's socket attending to its connections.
    private func wait(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() && Date() < deadline {
            // libzmq attaches a new connection (and sends the subscriptions on it) only when the
            // socket's own thread calls into it, as a daemon's polling loop does.
            _ = try? subscriber?.get(.events)
            usleep(1000)
        }
        XCTAssertTrue(condition(), what)
    }

    /// Closes the subscriber, as a daemon killed: its connection ends without an unsubscription.
    private func killSubscriber(_ client: ModalwatchClient) {
        subscriber?.close()
        subscriber = nil
        wait("the client saw the subscriber go") { !client.hasSubscriber(for: Self.bucket) }
    }

    /// Binds a new subscriber on the same endpoint, as the daemon started again.
    private func restartSubscriber(_ client: ModalwatchClient) throws {
        let socket = try ZMQSocket(context, type: .sub, linger: 0)
        try socket.set(.receiveTimeout, 3000)
        try socket.subscribe("ui/67/")
        let deadline = Date().addingTimeInterval(5)
        while true {
            // The old listener closes on libzmq's I/O thread: the port may be taken a moment longer.
            do {
                try socket.bind(endpoint)
                break
            } catch {
                if Date() >= deadline { throw error }
                usleep(10_000)
            }
        }
        subscriber = socket
        wait("the new subscriber's subscription reached the client") { client.hasSubscriber(for: Self.bucket) }
    }

    /// Receives until `count` events came (or a receive times out): their lines, in order.
    private func receiveEvents(_ count: Int) throws -> [String] {
        var lines: [String] = []
        while lines.count < count, let message = try subscriber?.receiveMultipart(maxFrames: 4) {
            XCTAssertEqual(message.frames.count, 2, "topic and payload")
            XCTAssertTrue(String(decoding: message.frames[0], as: UTF8.self).hasPrefix("ui/67/\(Self.app)/"))
            lines += String(decoding: message.frames[1], as: UTF8.self).split(separator: "\n").map(String.init)
        }
        return lines
    }

    /// Whether anything more arrives within `ms`.
    private func nothingMore(within ms: Int32) throws -> Bool {
        try subscriber?.set(.receiveTimeout, ms)
        defer { try? subscriber?.set(.receiveTimeout, 3000) }
        // A receive that times out fails with EAGAIN.
        return (try? subscriber?.receiveMultipart(maxFrames: 4)) == nil
    }

    private func seqs(_ lines: [String]) -> [Int] {
        lines.map { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["seq"] as? Int ?? -1
        }
    }

    func testASubscriberThatComesBackGetsTheWindowInOrderThenNewEvents() throws {
        let client = try client { _ in }
        defer { client.close() }
        wait("the subscription reached the client") { client.hasSubscriber(for: Self.bucket) }
        let session = client.startSession(app: Self.app, id: "S1", at: 1000)
        for n in 1...4 { session.send(.userAction(control: .button, label: "tap \(n)"), at: 1000 + Int64(n)) }
        XCTAssertEqual(seqs(try receiveEvents(5)), Array(1...5), "the first subscriber gets seq 1 to 5")

        killSubscriber(client)
        for n in 5...9 { session.send(.userAction(control: .button, label: "tap \(n)"), at: 1000 + Int64(n)) }
        wait("the events sent while nobody listened are counted") { client.statistics.eventsDroppedNoSubscriber == 5 }

        try restartSubscriber(client)
        XCTAssertEqual(
            seqs(try receiveEvents(10)),
            Array(1...10),
            "the window, oldest first, those nobody got included"
        )
        session.send(.appBackground, at: 2000)
        XCTAssertEqual(seqs(try receiveEvents(1)), [11], "then the new event")
        XCTAssertTrue(try nothingMore(within: 200))
        let statistics = client.statistics
        XCTAssertEqual(statistics.eventsReplayed, 10)
        XCTAssertGreaterThanOrEqual(statistics.messagesReplayed, 1)
        XCTAssertEqual(statistics.eventsSent, 6, "a replay is counted apart")
        XCTAssertEqual(statistics.replayWindowEvents, 11)
        XCTAssertEqual(statistics.replayWindowOverflows, 0)
    }

    func testTheWindowKeepsItsBoundInEventsAndCountsWhatLeft() throws {
        let client = try client { $0.replayWindowEvents = 4 }
        defer { client.close() }
        wait("the subscription reached the client") { client.hasSubscriber(for: Self.bucket) }
        let session = client.startSession(app: Self.app, id: "S2", at: 1000)
        for n in 1...9 { session.send(.userAction(control: .button, label: "tap \(n)"), at: 1000 + Int64(n)) }
        XCTAssertEqual(try receiveEvents(10).count, 10)
        wait("every event went through the window") { client.statistics.replayWindowOverflows == 6 }
        XCTAssertEqual(client.statistics.replayWindowEvents, 4)

        killSubscriber(client)
        try restartSubscriber(client)
        XCTAssertEqual(seqs(try receiveEvents(4)), [7, 8, 9, 10], "only the newest 4")
        XCTAssertTrue(try nothingMore(within: 200))
        XCTAssertEqual(client.statistics.eventsReplayed, 4)
    }

    func testTheWindowKeepsItsBoundInBytesAndCountsWhatLeft() throws {
        // Events of 100 bytes (seq in the first digits) and a window of 350 bytes: 3 fit.
        func event(_ seq: Int, size: Int = 100) -> [UInt8] {
            let head =
                #"{"v":1,"type":"app.background","session":"S3","app":"com.example.mail","seq":\#(seq),"ts":1,"pad":""#
            return Array((head + String(repeating: "x", count: size - head.utf8.count - 2) + #""}"#).utf8)
        }
        let client = try client { $0.replayWindowBytes = 350 }
        defer { client.close() }
        wait("the subscription reached the client") { client.hasSubscriber(for: Self.bucket) }
        for seq in 1...8 { XCTAssertTrue(client.publish(encoded: event(seq), app: Self.app, session: "S3")) }
        XCTAssertTrue(
            client.publish(encoded: event(9, size: 351), app: Self.app, session: "S3"),
            "larger than the window"
        )
        XCTAssertEqual(try receiveEvents(9).count, 9)
        wait("every event went through the window") { client.statistics.replayWindowOverflows == 6 }
        XCTAssertEqual(client.statistics.replayWindowEvents, 3)
        XCTAssertEqual(client.statistics.replayWindowBytes, 300)

        killSubscriber(client)
        try restartSubscriber(client)
        XCTAssertEqual(
            seqs(try receiveEvents(3)),
            [6, 7, 8],
            "the newest that fit, not the one larger than the window"
        )
        XCTAssertTrue(try nothingMore(within: 200))
        XCTAssertEqual(client.statistics.eventsReplayed, 3)
        XCTAssertEqual(client.statistics.bytesReplayed, 302, "3 lines of 100 bytes, 2 newlines")
    }

    func testAWindowOfZeroReplaysNothing() throws {
        let client = try client { $0.replayWindowEvents = 0 }
        defer { client.close() }
        wait("the subscription reached the client") { client.hasSubscriber(for: Self.bucket) }
        let session = client.startSession(app: Self.app, id: "S4", at: 1000)
        XCTAssertEqual(try receiveEvents(1).count, 1)
        killSubscriber(client)
        try restartSubscriber(client)
        XCTAssertTrue(try nothingMore(within: 300))
        session.send(.appBackground, at: 2000)
        XCTAssertEqual(seqs(try receiveEvents(1)), [2])
        XCTAssertEqual(client.statistics.eventsReplayed, 0)
        XCTAssertEqual(client.statistics.replayWindowEvents, 0)
    }

    func testTheBoundsAreCheckedWhereTheyEnter() {
        for adjust: (inout ClientConfiguration) -> Void in [
            { $0.replayWindowEvents = -1 }, { $0.replayWindowEvents = 1_000_001 },
            { $0.replayWindowBytes = -1 }, { $0.replayWindowBytes = (1 << 30) + 1 },
        ] {
            XCTAssertThrowsError(try client(adjust)) { error in
                XCTAssertTrue("\(error)".contains("replayWindow"), "\(error)")
            }
        }
    }
}
