@testable import DaemonCore
import XCTest
import ZeroMQ

/// The typed hand-over between the ingest and the publishing thread, over a real `inproc` PAIR.
final class HandOverTests: XCTestCase {
    private var context: ZMQContext!
    private var sender: ZMQSocket!
    private var receiver: ZMQSocket!

    override func setUpWithError() throws {
        context = try ZMQContext()
        let endpoint = "inproc://handover-\(UInt64.random(in: 0...UInt64.max))"
        receiver = try ZMQSocket(context, type: .pair)
        try receiver.bind(endpoint)
        sender = try ZMQSocket(context, type: .pair)
        try sender.connect(endpoint)
    }

    override func tearDown() {
        sender.close()
        receiver.close()
        context.terminate()
    }

    func testBatchArrivesWithItsBodyAndFinishWithout() throws {
        let body: [UInt8] = [1, 2, 3, 0, 255]
        _ = try body.withUnsafeBytes { try HandOver.batch.send(on: sender, body: $0) }
        try HandOver.finish.send(on: sender)

        var header = ZMQMessage(), received = ZMQMessage()
        XCTAssertEqual(try HandOver.receive(from: receiver, header: &header, body: &received), .batch)
        XCTAssertEqual(received.bytes, body)
        XCTAssertEqual(try HandOver.receive(from: receiver, header: &header, body: &received), .finish)
        XCTAssertNil(try HandOver.receive(from: receiver, header: &header, body: &received, dontWait: true), "nothing more waits")
    }

    func testTheHeaderIsOneByteFrameAndTheBodyFollows() throws {
        let body: [UInt8] = Array("records".utf8)
        _ = try body.withUnsafeBytes { try HandOver.batch.send(on: sender, body: $0) }
        try HandOver.finish.send(on: sender)
        let batch = try XCTUnwrap(receiver.receiveMultipart())
        XCTAssertEqual(batch.frames, [[HandOver.batch.rawValue], body])
        let finish = try XCTUnwrap(receiver.receiveMultipart())
        XCTAssertEqual(finish.frames, [[HandOver.finish.rawValue]])
    }

    func testAnUnknownHeaderIsSkippedWithItsFramesAndTheNextMessageStillArrives() throws {
        XCTAssertTrue(try sender.sendMultipart([[0x7F], [9, 9], [9]]))
        XCTAssertTrue(try sender.sendMultipart([[HandOver.batch.rawValue]]))  // a batch without its body
        try HandOver.finish.send(on: sender)

        var header = ZMQMessage(), body = ZMQMessage()
        XCTAssertNil(try HandOver.receive(from: receiver, header: &header, body: &body))
        XCTAssertNil(try HandOver.receive(from: receiver, header: &header, body: &body))
        XCTAssertEqual(try HandOver.receive(from: receiver, header: &header, body: &body), .finish)
    }

    func testAnEmptyBatchIsStillABatch() throws {
        try HandOver.batch.send(on: sender)
        var header = ZMQMessage(), body = ZMQMessage()
        XCTAssertEqual(try HandOver.receive(from: receiver, header: &header, body: &body), .batch)
        XCTAssertEqual(body.count, 0)
    }
}
