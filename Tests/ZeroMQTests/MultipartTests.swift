import XCTest
import ZeroMQ

final class MultipartTests: XCTestCase {
    private var context: ZMQContext!
    private var sender: ZMQSocket!
    private var receiver: ZMQSocket!

    override func setUpWithError() throws {
        self.context = try ZMQContext()
        self.receiver = try ZMQSocket(self.context, type: .pair)
        try self.receiver.bind("inproc://multipart")
        self.sender = try ZMQSocket(self.context, type: .pair)
        try self.sender.connect("inproc://multipart")
        try self.receiver.set(.receiveTimeout, 2000)
    }

    override func tearDown() {
        self.sender = nil
        self.receiver = nil
        self.context = nil
    }

    func testTwoAndThreeFrames() throws {
        let two: [[UInt8]] = [Array("violation/app/rule".utf8), Array(#"{"v":1}"#.utf8)]
        let three: [[UInt8]] = [[1], [2, 2], [3, 3, 3]]
        XCTAssertTrue(try self.sender.sendMultipart(two))
        XCTAssertTrue(try self.sender.sendMultipart(three))

        let first = try XCTUnwrap(try self.receiver.receiveMultipart())
        XCTAssertEqual(first.frames, two)
        XCTAssertEqual(first.frameCount, 2)
        XCTAssertFalse(first.isTruncated)
        let second = try XCTUnwrap(try self.receiver.receiveMultipart())
        XCTAssertEqual(second.frames, three)
        XCTAssertEqual(second.frameCount, 3)
    }

    func testEmptyFramesAndHasMoreOnReusedMessage() throws {
        try self.sender.sendMultipart([[], [0xAB], []])
        var message = ZMQMessage()
        var frames: [[UInt8]] = []
        var more: [Bool] = []
        repeat {
            XCTAssertTrue(try self.receiver.receive(into: &message))
            frames.append(message.bytes)
            more.append(message.hasMore)
        } while message.hasMore
        XCTAssertEqual(frames, [[], [0xAB], []])
        XCTAssertEqual(more, [true, true, false])
        XCTAssertTrue(message.isEmpty)
    }

    func testFramesSentOneByOneWithMoreFlag() throws {
        try self.sender.send("topic", flags: .more)
        try self.sender.send([UInt8]("payload".utf8), flags: [])
        let message = try XCTUnwrap(try self.receiver.receiveMultipart())
        XCTAssertEqual(message.frames.map { String(decoding: $0, as: UTF8.self) }, ["topic", "payload"])
    }

    func testMaxFramesDrainsTheRestAndCountsThem() throws {
        try self.sender.sendMultipart([[1], [2], [3], [4], [5]])
        try self.sender.send("next")
        let truncated = try XCTUnwrap(try self.receiver.receiveMultipart(maxFrames: 2))
        XCTAssertEqual(truncated.frames, [[1], [2]])
        XCTAssertEqual(truncated.frameCount, 5)
        XCTAssertTrue(truncated.isTruncated)
        let next = try XCTUnwrap(try self.receiver.receiveMultipart(maxFrames: 2))
        XCTAssertEqual(next.frames, [Array("next".utf8)])
        XCTAssertEqual(next.frameCount, 1)
    }

    func testNoFramesIsRefusedAndNothingWaitingIsNil() throws {
        XCTAssertThrowsError(try self.sender.sendMultipart([])) { error in
            XCTAssertEqual((error as? ZMQError)?.code, .invalidArgument)
        }
        XCTAssertNil(try self.receiver.receiveMultipart(dontWait: true))
    }
}
