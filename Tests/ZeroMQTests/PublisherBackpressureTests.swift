import XCTest
import ZeroMQ

final class PublisherBackpressureTests: XCTestCase {
    /// A `PUB` drops for a slow subscriber without saying so; an `XPUB` with `xpubNoDrop` reports it.
    func testXPUBNoDropReportsFullQueueWhilePUBDropsSilently() throws {
        let context = try ZMQContext()
        for (type, noDrop) in [(ZMQSocketType.pub, false), (.xpub, true)] {
            let publisher = try ZMQSocket(context, type: type)
            try publisher.set(.sendHighWaterMark, 10)
            if noDrop { try publisher.set(.xpubNoDrop, true) }
            try publisher.bind("inproc://backpressure-\(type)")
            let subscriber = try ZMQSocket(context, type: .sub)
            try subscriber.set(.receiveHighWaterMark, 10)
            try subscriber.connect("inproc://backpressure-\(type)")
            try subscriber.subscribe()
            try awaitSubscription(publisher: publisher, subscriber: subscriber, probe: "probe")

            var refused = 0
            for index in 0..<1000 where try !publisher.send("event \(index)", flags: .dontWait) {
                refused += 1
            }
            var delivered = 0
            while let frame = try subscriber.receiveFrame(dontWait: true) {
                if frame != Array("probe".utf8) { delivered += 1 }
            }
            if noDrop {
                XCTAssertGreaterThan(refused, 0, "XPUB_NODROP must refuse when the queue is full")
                XCTAssertEqual(delivered + refused, 1000, "every event is either delivered or refused")
            } else {
                XCTAssertEqual(refused, 0, "a PUB never refuses")
                XCTAssertLessThan(delivered, 1000, "a PUB dropped for the slow subscriber")
            }
        }
    }
}
