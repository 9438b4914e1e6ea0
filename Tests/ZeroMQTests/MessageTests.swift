import XCTest
import ZeroMQ

final class MessageTests: XCTestCase {
    func testAFrameMovesToAnotherSocketWholeWithItsMoreFlagAndLeavesTheMessageEmpty() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let (a, b, c, d) = try (
            ZMQSocket(context, type: .pair), ZMQSocket(context, type: .pair),
            ZMQSocket(context, type: .pair), ZMQSocket(context, type: .pair)
        )
        defer { for socket in [a, b, c, d] { socket.close() } }
        try b.bind("inproc://move-in")
        try a.connect("inproc://move-in")
        try d.bind("inproc://move-out")
        try c.connect("inproc://move-out")
        try d.set(.receiveTimeout, 2000)
        try b.set(.receiveTimeout, 2000)
        let frames: [[UInt8]] = [Array("topic/".utf8), [UInt8](repeating: 7, count: 5000), []]
        try a.sendMultipart(frames)
        var message = ZMQMessage()
        while true {
            XCTAssertTrue(try b.receive(into: &message))
            let more = message.hasMore
            XCTAssertTrue(try c.send(&message, flags: more ? .more : []))
            XCTAssertEqual(message.count, 0, "libzmq took the frame")
            if !more { break }
        }
        let moved = try XCTUnwrap(try d.receiveMultipart())
        XCTAssertEqual(moved.frames, frames)
    }

    func testOneMessageReusedAcrossTenThousandReceives() throws {
        let context = try ZMQContext()
        let receiver = try ZMQSocket(context, type: .pair)
        try receiver.bind("inproc://reuse")
        let sender = try ZMQSocket(context, type: .pair)
        try sender.connect("inproc://reuse")
        try receiver.set(.receiveTimeout, 2000)

        /// Frame `index`: its index, then a filler; sizes cross libzmq's 33-byte inline limit.
        func frame(_ index: Int) -> [UInt8] {
            let size = 4 + (index % 7 == 0 ? 1000 : index % 60)
            var bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: size)
            withUnsafeBytes(of: UInt32(index).littleEndian) { bytes.replaceSubrange(0..<4, with: $0) }
            return bytes
        }

        var message = ZMQMessage()
        let total = 10_000
        let batch = 250
        var received = 0
        var totalBytes = 0
        for start in stride(from: 0, to: total, by: batch) {
            for index in start..<(start + batch) {
                try sender.send(frame(index), flags: index % 10 == 0 ? .more : [])
            }
            for index in start..<(start + batch) {
                XCTAssertTrue(try receiver.receive(into: &message))
                let expected = frame(index)
                let matches = message.withBytes { bytes in bytes.elementsEqual(expected) }
                if !matches {
                    XCTFail("frame \(index) differs: \(message.count) bytes, expected \(expected.count)")
                    return
                }
                XCTAssertEqual(message.hasMore, index % 10 == 0, "frame \(index)")
                totalBytes += message.count
                received += 1
            }
        }
        XCTAssertEqual(received, total)
        XCTAssertEqual(totalBytes, (0..<total).reduce(0) { $0 + frame($1).count })
        XCTAssertFalse(try receiver.receive(into: &message, dontWait: true))
    }

    func testMessageMovesWithoutCopying() throws {
        let context = try ZMQContext()
        let receiver = try ZMQSocket(context, type: .pair)
        try receiver.bind("inproc://move")
        let sender = try ZMQSocket(context, type: .pair)
        try sender.connect("inproc://move")
        try sender.send("moved")

        var message = ZMQMessage()
        XCTAssertTrue(try receiver.receive(into: &message))
        let moved = consume message  // the old binding is gone; the frame travels with the new one
        XCTAssertEqual(String(decoding: moved.bytes, as: UTF8.self), "moved")
        XCTAssertEqual(moved.count, 5)
        XCTAssertFalse(moved.hasMore)
    }
}
