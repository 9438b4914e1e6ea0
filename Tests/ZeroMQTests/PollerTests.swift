import CZeroMQ
import Foundation
import Glibc
import XCTest
import ZeroMQ

final class PollerTests: XCTestCase {
    func testPollAcrossTwoSocketsAndAnEventfd() throws {
        let context = try ZMQContext()
        let first = try ZMQSocket(context, type: .pull)
        try first.bind("inproc://poll-1")
        let second = try ZMQSocket(context, type: .pull)
        try second.bind("inproc://poll-2")
        let firstSender = try ZMQSocket(context, type: .push)
        try firstSender.connect("inproc://poll-1")
        let secondSender = try ZMQSocket(context, type: .push)
        try secondSender.connect("inproc://poll-2")
        let wakeup = eventfd(0, 0)
        XCTAssertGreaterThanOrEqual(wakeup, 0)
        defer { Glibc.close(wakeup) }

        let poller = ZMQPoller()
        let firstIndex = try poller.add(first)
        let secondIndex = try poller.add(second)
        let wakeupIndex = poller.add(fileDescriptor: wakeup)
        XCTAssertEqual([firstIndex, secondIndex, wakeupIndex], [0, 1, 2])
        XCTAssertEqual(poller.count, 3)

        XCTAssertEqual(try poller.poll(timeout: 0), 0)
        XCTAssertEqual(try poller.poll(timeout: 20), 0)

        // The eventfd alone.
        var one: UInt64 = 1
        XCTAssertEqual(write(wakeup, &one, 8), 8)
        XCTAssertEqual(try poller.poll(timeout: 1000), 1)
        XCTAssertEqual([poller.isReadable(0), poller.isReadable(1), poller.isReadable(2)], [false, false, true])
        var counter: UInt64 = 0
        XCTAssertEqual(read(wakeup, &counter, 8), 8)
        XCTAssertEqual(counter, 1)

        // The second socket alone.
        try secondSender.send("two")
        XCTAssertEqual(try poller.poll(timeout: 1000), 1)
        XCTAssertEqual([poller.isReadable(0), poller.isReadable(1), poller.isReadable(2)], [false, true, false])
        XCTAssertEqual(try second.receiveString(), "two")

        // Both sockets at once, then nothing again once drained.
        try firstSender.send("one")
        try secondSender.send("two again")
        let deadline = ContinuousClock.now + .seconds(2)
        var ready = 0
        while ready < 2, ContinuousClock.now < deadline {
            ready = try poller.poll(timeout: 100)
        }
        XCTAssertEqual(ready, 2)
        XCTAssertTrue(poller.isReadable(firstIndex))
        XCTAssertTrue(poller.isReadable(secondIndex))
        XCTAssertFalse(poller.isReadable(wakeupIndex))
        XCTAssertEqual(try first.receiveString(), "one")
        XCTAssertEqual(try second.receiveString(), "two again")
        XCTAssertEqual(try poller.poll(timeout: 0), 0)
    }

    func testPollRefusesClosedSocket() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, type: .pull)
        let poller = ZMQPoller()
        try poller.add(socket)
        socket.close()
        XCTAssertThrowsError(try poller.poll(timeout: 0)) { error in
            XCTAssertEqual((error as? ZMQError)?.code, .socketClosed)
        }
        poller.removeAll()
        XCTAssertEqual(poller.count, 0)
    }
}
