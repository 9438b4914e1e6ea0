import ConnectionLimits
import Foundation
import Logging
import Synchronization
import XCTest
import ZeroMQ

/// An `XPUB`'s subscription bounds with real sockets: per connection, in all, a connection on a
/// descriptor an earlier one had starts with nothing of it, and what is kept and released is told.
final class SubscriptionGuardTests: XCTestCase {
    private let limits = SubscriptionGuard.Limits(
        perPeerCount: 4,
        perPeerBytes: 1_000,
        totalCount: 6,
        totalBytes: 10_000
    )

    /// An `XPUB` as the publishing thread makes it, its guard and what the guard told.
    private final class Publish {
        let socket: ZMQSocket
        let guardian: SubscriptionGuard
        let endpoint: String
        /// The topics kept and not released since, with how many times each.
        var upstream: [[UInt8]: Int] = [:]
        /// `.refused` events told.
        var refusedEvents: UInt64 = 0

        init(socket: ZMQSocket, guardian: SubscriptionGuard, endpoint: String) {
            self.socket = socket
            self.guardian = guardian
            self.endpoint = endpoint
        }

        var refused: UInt64 { guardian.refused }

        /// Serves once, recording the events.
        func serveOnce() {
            guardian.serve(socket) { event in
                switch event {
                case .kept(let topic): upstream[topic, default: 0] += 1
                case .released(let topic):
                    upstream[topic, default: 0] -= 1
                    if upstream[topic] == 0 { upstream[topic] = nil }
                case .refused: refusedEvents += 1
                }
            }
        }

        /// Serves the subscriptions until `done` holds, at most 5 s; whether it did.
        @discardableResult
        func serve(until done: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                serveOnce()
                if done() { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }
    }

    private func publish(_ context: ZMQContext, totalCount: Int? = nil) throws -> Publish {
        let socket = try ZMQSocket(context, type: .xpub)
        try socket.set(.xpubVerboser, true)
        try socket.bind("tcp://127.0.0.1:*")
        let endpoint = try socket.lastEndpoint
        var limits = self.limits
        if let totalCount { limits.totalCount = totalCount }
        let guardian = SubscriptionGuard(
            limits: limits,
            name: "publish",
            boundEndpoint: endpoint,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        return Publish(socket: socket, guardian: guardian, endpoint: endpoint)
    }

    /// A `SUB` that never reconnects, subscribed to `topics`.
    private func subscriber(_ context: ZMQContext, _ endpoint: String, _ topics: [String]) throws -> ZMQSocket {
        let socket = try ZMQSocket(context, type: .sub)
        try socket.set(.reconnectInterval, -1)
        try socket.connect(endpoint)
        for topic in topics { try socket.subscribe(topic) }
        return socket
    }

    func testAConnectionPastItsBoundIsRefusedAndShutDownWhichFreesWhatItHeld() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let publish = try publish(context)
        defer { publish.socket.close() }
        let hostile = try subscriber(context, publish.endpoint, (0..<6).map { "violation/a\($0)/" })
        defer { hostile.close() }
        XCTAssertTrue(publish.serve { publish.refused == 2 }, "the fifth and sixth are refused")
        // Its connection was shut down: libzmq dropped what it held, and so does the guard.
        XCTAssertTrue(
            publish.serve { publish.guardian.totalCount == 0 && publish.guardian.peerCount == 0 },
            "\(publish.guardian.totalCount)"
        )
        XCTAssertEqual(publish.refused, 2)
    }

    func testAConnectionOnADescriptorAnEarlierOneHadStartsWithNothing() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let publish = try publish(context, totalCount: 100)
        defer { publish.socket.close() }
        let first = try subscriber(context, publish.endpoint, (0..<3).map { "violation/a\($0)/" })
        XCTAssertTrue(publish.serve { publish.guardian.totalCount == 3 })
        first.close()
        // The next connection most likely takes the descriptor the first one had.
        let second = try subscriber(context, publish.endpoint, (0..<4).map { "violation/b\($0)/" })
        defer { second.close() }
        XCTAssertTrue(
            publish.serve { publish.guardian.totalCount == 4 && publish.guardian.peerCount == 1 },
            "\(publish.guardian.totalCount)"
        )
        XCTAssertEqual(publish.refused, 0, "the second connection's four are its own")
    }

    func testTheTotalBoundRefusesTheConnectionThatWouldPassIt() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let publish = try publish(context)
        defer { publish.socket.close() }
        let one = try subscriber(context, publish.endpoint, (0..<4).map { "violation/a\($0)/" })
        defer { one.close() }
        XCTAssertTrue(publish.serve { publish.guardian.totalCount == 4 })
        let two = try subscriber(context, publish.endpoint, (0..<3).map { "violation/b\($0)/" })
        defer { two.close() }
        XCTAssertTrue(publish.serve { publish.refused == 1 }, "the seventh in all is refused")
        // The second connection was shut down; the first keeps its four.
        XCTAssertTrue(
            publish.serve { publish.guardian.totalCount == 4 && publish.guardian.peerCount == 1 },
            "\(publish.guardian.totalCount)"
        )
    }

    func testAnUnsubscriptionFreesItsPlaceAndADuplicateCountsOnce() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let publish = try publish(context)
        defer { publish.socket.close() }
        let peer = try subscriber(context, publish.endpoint, (0..<4).map { "violation/a\($0)/" })
        defer { peer.close() }
        XCTAssertTrue(publish.serve { publish.guardian.totalCount == 4 })
        try peer.unsubscribe("violation/a0/")
        XCTAssertTrue(publish.serve { publish.guardian.totalCount == 3 })
        try peer.subscribe("violation/a9/")
        try peer.subscribe("violation/a9/")  // a SUB sends it once; counted once either way
        XCTAssertTrue(publish.serve { publish.guardian.totalCount == 4 })
        Thread.sleep(forTimeInterval: 0.1)
        publish.serveOnce()
        XCTAssertEqual(publish.refused, 0)
        XCTAssertEqual(publish.guardian.totalCount, 4)
        XCTAssertEqual(
            Set(publish.upstream.keys),
            Set((1..<4).map { Array("violation/a\($0)/".utf8) } + [Array("violation/a9/".utf8)])
        )
        XCTAssertEqual(publish.upstream.values.max(), 1, "each kept once")
    }

    func testWhatIsKeptIsReleasedWhenItsConnectionEndsAndRefusedOnesNeverAre() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let publish = try publish(context)
        defer { publish.socket.close() }
        // A topic another connection also holds: refused from the hostile one, it must not be released.
        let shared = "violation/shared/"
        let good = try subscriber(context, publish.endpoint, [shared])
        defer { good.close() }
        XCTAssertTrue(publish.serve { publish.upstream[Array(shared.utf8)] == 1 })
        // Sent in the SUB's order (its trie's when they wait for the connection): the four
        // `violation/h…/` first, the connection's bound, then the shared one, refused.
        let hostile = try subscriber(context, publish.endpoint, (0..<4).map { "violation/h\($0)/" } + [shared])
        defer { hostile.close() }
        XCTAssertTrue(publish.serve { publish.refused >= 1 }, "past the bound")
        XCTAssertEqual(publish.refusedEvents, publish.refused)
        // Shut down: what it kept is released, the good connection's topic stays kept once.
        XCTAssertTrue(
            publish.serve { publish.guardian.peerCount == 1 && publish.upstream == [Array(shared.utf8): 1] },
            "\(publish.upstream)"
        )
        XCTAssertEqual(publish.guardian.totalCount, 1)
    }
}
