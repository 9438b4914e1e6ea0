import Foundation
import XCTest
import ZeroMQ

final class SocketOptionTests: XCTestCase {
    func testTypedOptionsRoundTrip() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, type: .sub)
        try socket.set(.sendHighWaterMark, 1234)
        try socket.set(.receiveHighWaterMark, 50_000)
        try socket.set(.maxMessageSize, 256 * 1024)
        try socket.set(.immediate, true)
        try socket.set(.receiveTimeout, 75)
        try socket.set(.sendTimeout, 80)
        try socket.set(.routingID, [7, 8, 9])
        XCTAssertEqual(try socket.get(.sendHighWaterMark), 1234)
        XCTAssertEqual(try socket.get(.receiveHighWaterMark), 50_000)
        XCTAssertEqual(try socket.get(.maxMessageSize), 262_144)
        XCTAssertEqual(try socket.get(.immediate), true)
        XCTAssertEqual(try socket.get(.receiveTimeout), 75)
        XCTAssertEqual(try socket.get(.sendTimeout), 80)
        XCTAssertEqual(try socket.get(.routingID), [7, 8, 9])
        XCTAssertEqual(try socket.get(.type), ZMQSocketType.sub.rawValue)
        XCTAssertEqual(try socket.get(.receiveMore), false)
        XCTAssertGreaterThanOrEqual(try socket.get(.fileDescriptor), 0)
    }

    func testMaxMessageSizeRefusesOversizeMessage() throws {
        let context = try ZMQContext()
        let receiver = try ZMQSocket(context, type: .pull)
        try receiver.set(.maxMessageSize, 1024)
        try receiver.bind("tcp://127.0.0.1:*")
        let sender = try ZMQSocket(context, type: .push)
        try sender.set(.reconnectInterval, 10)
        try sender.connect(try receiver.lastEndpoint)

        try receiver.set(.receiveTimeout, 2000)
        try sender.send([UInt8](repeating: 1, count: 1024))
        XCTAssertEqual(try receiver.receiveFrame()?.count, 1024, "a message at the limit passes")

        try sender.send([UInt8](repeating: 2, count: 1025))
        try receiver.set(.receiveTimeout, 300)
        XCTAssertThrowsError(try receiver.receiveFrame(), "a message over the limit must not arrive") { error in
            XCTAssertEqual((error as? ZMQError)?.isAgain, true, "\(error)")
        }

        // The sender was disconnected for it; it reconnects, and the next small message arrives.
        try sender.send([UInt8](repeating: 3, count: 10))
        try receiver.set(.receiveTimeout, 3000)
        XCTAssertEqual(try receiver.receiveFrame(), [UInt8](repeating: 3, count: 10))
    }

    func testReceiveTimeoutGivesEAGAIN() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, type: .pull)
        try socket.bind("inproc://timeout")
        try socket.set(.receiveTimeout, 50)
        var message = ZMQMessage()
        let start = ContinuousClock.now
        XCTAssertThrowsError(try socket.receive(into: &message)) { error in
            let error = error as? ZMQError
            XCTAssertEqual(error?.isAgain, true)
            XCTAssertEqual(error?.errno, EAGAIN)
            XCTAssertEqual(error?.code, .callFailed)
            XCTAssertEqual(error?.operation, "zmq_msg_recv")
        }
        let elapsed = ContinuousClock.now - start
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(45))
        XCTAssertLessThan(elapsed, .seconds(2))

        // Without waiting, "nothing there" is a result, not an error.
        XCTAssertFalse(try socket.receive(into: &message, dontWait: true))
        XCTAssertEqual(message.count, 0)
    }

    func testSendTimeoutGivesEAGAINAndDontWaitGivesFalse() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, type: .push)  // no peer: a PUSH cannot send
        try socket.set(.sendTimeout, 30)
        XCTAssertThrowsError(try socket.send("x")) { error in
            XCTAssertEqual((error as? ZMQError)?.isAgain, true)
        }
        XCTAssertFalse(try socket.send("x", flags: .dontWait))
        XCTAssertFalse(try socket.sendMultipart([[1], [2]], dontWait: true))
    }

    func testCloseIsIdempotentAndSetsLinger() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, type: .push)
        XCTAssertEqual(try socket.get(.linger), 0, "libzmq's default is -1; the wrapper sets 0 at once")
        XCTAssertEqual(socket.linger, 0)
        try socket.set(.linger, 250)
        XCTAssertEqual(socket.linger, 250)
        XCTAssertEqual(try socket.get(.linger), 250)

        XCTAssertFalse(socket.isClosed)
        socket.close()
        XCTAssertTrue(socket.isClosed)
        socket.close()
        XCTAssertTrue(socket.isClosed)
        XCTAssertThrowsError(try socket.send("x")) { error in
            let error = error as? ZMQError
            XCTAssertEqual(error?.code, .socketClosed)
            XCTAssertEqual(error?.errno, ENOTSOCK)
        }
        XCTAssertThrowsError(try socket.get(.linger))
        context.terminate()
    }

    func testLingerAtCloseBoundsContextTermination() throws {
        // Zero linger: an undeliverable message does not hold up termination.
        XCTAssertLessThan(try self.terminationTime(linger: 0), .milliseconds(250))
        // A linger period is honoured: termination waits for it, and no longer.
        let waited = try self.terminationTime(linger: 300)
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(250))
        XCTAssertLessThan(waited, .seconds(2))
    }

    /// How long `terminate()` takes after closing a socket with an unsent message and `linger`.
    private func terminationTime(linger: Int32) throws -> Duration {
        let context = try ZMQContext()
        let endpoint = unboundEndpoint()
        let socket = try ZMQSocket(context, type: .push, linger: linger)
        try socket.connect(endpoint)  // nobody listens: the message stays queued
        XCTAssertTrue(try socket.send("stuck", flags: .dontWait))
        socket.close()

        let done = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        startThread {
            context.terminate()
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success, "terminate() blocked on a lingering socket")
        return ContinuousClock.now - start
    }
}
