@testable import DaemonCore
import Foundation
import Logging
import Synchronization
import XCTest
import ZeroMQ

/// The publish socket's subscription bounds with real sockets: per connection, in all, and a
/// connection on a descriptor an earlier one had starts with nothing of it.
final class SubscriptionGuardTests: XCTestCase {
    private let limits = SubscriptionGuard.Limits(perPeerCount: 4, perPeerBytes: 1_000, totalCount: 6, totalBytes: 10_000)

    /// An `XPUB` as the publishing thread makes it, its guard and its counters.
    private struct Publish {
        let socket: ZMQSocket
        let guardian: SubscriptionGuard
        let statistics: PublishingStatistics
        let endpoint: String

        var refused: UInt64 { statistics.subscriptionsRefused.load(ordering: .relaxed) }

        /// Serves the subscriptions until `done` holds, at most 5 s; whether it did.
        @discardableResult
        func serve(until done: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                guardian.serve(socket)
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
        let statistics = PublishingStatistics()
        var limits = self.limits
        if let totalCount { limits.totalCount = totalCount }
        let guardian = SubscriptionGuard(
            limits: limits, boundEndpoint: endpoint, statistics: statistics,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        return Publish(socket: socket, guardian: guardian, statistics: statistics, endpoint: endpoint)
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
        XCTAssertTrue(publish.serve { publish.guardian.totalCount == 0 && publish.guardian.peerCount == 0 }, "\(publish.guardian.totalCount)")
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
        XCTAssertTrue(publish.serve { publish.guardian.totalCount == 4 && publish.guardian.peerCount == 1 }, "\(publish.guardian.totalCount)")
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
        XCTAssertTrue(publish.serve { publish.guardian.totalCount == 4 && publish.guardian.peerCount == 1 }, "\(publish.guardian.totalCount)")
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
        publish.guardian.serve(publish.socket)
        XCTAssertEqual(publish.refused, 0)
        XCTAssertEqual(publish.guardian.totalCount, 4)
    }
}
