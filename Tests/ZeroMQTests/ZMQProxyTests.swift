import Foundation
import XCTest
import ZeroMQ

/// `zmq_proxy_steerable` through the wrapper: an XSUB/XPUB forwarder on a thread that owns
/// its sockets, messages and subscriptions through it, its counters, and a clean stop.
final class ZMQProxyTests: XCTestCase {
    func testForwardsCountsAndStopsOnTerminate() throws {
        let context = try ZMQContext(ioThreads: 1)
        defer { context.terminate() }
        let ready = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let suffix = UInt64.random(in: 0...UInt64.max)
        let thread = Thread {
            defer { done.signal() }
            guard let front = try? ZMQSocket(context, type: .xsub), let back = try? ZMQSocket(context, type: .xpub),
                  let steer = try? ZMQSocket(context, type: .pair),
                  (try? front.bind("inproc://front-\(suffix)")) != nil, (try? back.bind("inproc://back-\(suffix)")) != nil,
                  (try? steer.bind("inproc://steer-\(suffix)")) != nil else {
                ready.signal()
                return
            }
            ready.signal()
            try? ZMQProxy.run(frontend: front, backend: back, control: steer)
            front.close()
            back.close()
            steer.close()
        }
        thread.start()
        ready.wait()
        let subscriber = try ZMQSocket(context, type: .sub)
        defer { subscriber.close() }
        try subscriber.subscribe("ui/67/")
        try subscriber.connect("inproc://back-\(suffix)")
        let publisher = try ZMQSocket(context, type: .pub)
        defer { publisher.close() }
        try publisher.connect("inproc://front-\(suffix)")
        let steering = try ZMQSocket(context, type: .pair)
        defer { steering.close() }
        try steering.set(.receiveTimeout, 2000)
        try steering.connect("inproc://steer-\(suffix)")

        // Until the subscription has gone up through the proxy, messages fall on the floor.
        var received: ZMQMultipart?
        let deadline = Date().addingTimeInterval(5)
        while received == nil && Date() < deadline {
            try publisher.sendMultipart([Array("ui/f5/other".utf8), Array("not for us".utf8)])
            try publisher.sendMultipart([Array("ui/67/mail".utf8), Array("hello".utf8)])
            usleep(2000)
            received = try subscriber.receiveMultipart(dontWait: true)
        }
        XCTAssertEqual(received?.frames, [Array("ui/67/mail".utf8), Array("hello".utf8)])

        _ = try steering.send(ZMQProxy.Command.statistics.rawValue)
        let reply = try XCTUnwrap(try steering.receiveMultipart(maxFrames: 8))
        let statistics = try XCTUnwrap(ZMQProxy.Statistics(frames: reply.frames))
        // The publisher filters by the subscriptions the proxy sent up: only ui/67/ reached it.
        XCTAssertGreaterThanOrEqual(statistics.frontendMessagesIn, 1)
        XCTAssertEqual(statistics.frontendBytesIn, statistics.frontendMessagesIn * UInt64("ui/67/mail".utf8.count + "hello".utf8.count))
        XCTAssertGreaterThanOrEqual(statistics.backendMessagesIn, 1, "the subscription came up")
        XCTAssertGreaterThanOrEqual(statistics.frontendMessagesOut, 1, "and went on to the publisher")
        XCTAssertEqual(statistics.backendMessagesOut, statistics.frontendMessagesIn, "XPUB counts what it was given")
        XCTAssertNil(ZMQProxy.Statistics(frames: [[1, 2, 3]]))

        _ = try steering.send(ZMQProxy.Command.terminate.rawValue)
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success, "TERMINATE ends the proxy")
    }
}
