import Foundation
import XCTest
import ZeroMQ

final class PubSubTests: XCTestCase {
    func testPubSubOverInproc() throws {
        let context = try ZMQContext()
        let publisher = try ZMQSocket(context, type: .pub)
        let subscriber = try ZMQSocket(context, type: .sub)
        try publisher.bind("inproc://pubsub")
        try subscriber.connect("inproc://pubsub")
        try subscriber.subscribe()

        try awaitSubscription(publisher: publisher, subscriber: subscriber, probe: "probe")
        for index in 0..<100 {
            try publisher.send("event \(index)")
        }
        XCTAssertEqual(try subscriber.receiveString(skipping: "probe"), "event 0")
        for index in 1..<100 {
            XCTAssertEqual(try subscriber.receiveString(), "event \(index)")
        }
        XCTAssertNil(try subscriber.receiveFrame(dontWait: true), "nothing more was published")
    }

    func testPubSubOverLoopbackTCPWithWildcardPort() throws {
        let context = try ZMQContext()
        let publisher = try ZMQSocket(context, type: .pub)
        try publisher.bind("tcp://127.0.0.1:*")
        let endpoint = try publisher.lastEndpoint
        XCTAssertTrue(endpoint.hasPrefix("tcp://127.0.0.1:"), endpoint)
        let port = try XCTUnwrap(Int(endpoint.dropFirst("tcp://127.0.0.1:".count)), endpoint)
        XCTAssertGreaterThan(port, 0)

        let subscriber = try ZMQSocket(context, type: .sub)
        try subscriber.connect(endpoint)
        try subscriber.subscribe("ui/")
        try awaitSubscription(publisher: publisher, subscriber: subscriber, probe: "ui/probe")

        try publisher.sendMultipart([Array("ui/app/s1".utf8), Array(#"{"v":1}"#.utf8)])
        try subscriber.set(.receiveTimeout, 2000)
        var message: ZMQMultipart
        repeat {
            message = try XCTUnwrap(try subscriber.receiveMultipart())
        } while message.frames == [Array("ui/probe".utf8)]
        XCTAssertEqual(message.frames, [Array("ui/app/s1".utf8), Array(#"{"v":1}"#.utf8)])
    }

    func testSubscriptionPrefixFiltering() throws {
        let context = try ZMQContext()
        let publisher = try ZMQSocket(context, type: .pub)
        let subscriber = try ZMQSocket(context, type: .sub)
        try publisher.bind("inproc://filter")
        try subscriber.connect("inproc://filter")
        try subscriber.subscribe("ui/a/")
        try subscriber.subscribe(Array("sync".utf8))
        try awaitSubscription(publisher: publisher, subscriber: subscriber, probe: "sync")

        for topic in ["ui/b/1", "ui/a/2", "other", "ui/", "ui/a/3", "UI/A/4", "ui/a/end"] {
            try publisher.send(topic)
        }
        var received: [String] = []
        while received.last != "ui/a/end" {
            received.append(try subscriber.receiveString(skipping: "sync"))
        }
        XCTAssertEqual(received, ["ui/a/2", "ui/a/3", "ui/a/end"])

        // Unsubscribing is asynchronous too, but ordered with later subscriptions on the same link:
        // once "ui/z/" is in force, "ui/a/" is gone.
        try subscriber.unsubscribe("ui/a/")
        try subscriber.subscribe("ui/z/")
        try awaitSubscription(publisher: publisher, subscriber: subscriber, probe: "ui/z/sync")
        try publisher.send("ui/a/after")
        try publisher.send("ui/z/end")
        XCTAssertEqual(try subscriber.receiveString(skipping: "ui/z/sync"), "ui/z/end")
    }
}
