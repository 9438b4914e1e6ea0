import Foundation
import XCTest
import ZeroMQ

final class SocketThreadTests: XCTestCase {
    private struct Refused: Error, Equatable {
        let endpoint: String
    }

    /// The sockets are made, reported and used on the new thread, which owns them for life.
    func testOpensReportsAndRunsOnOneNewThreadWithTheSocketItBound() throws {
        let context = try ZMQContext(ioThreads: 1)
        let threads = Locked<[String: pthread_t]>([:])
        let echoed = Locked<String?>(nil)
        let (endpoint, finished) = try SocketThread.start(
            name: "test-socket-thread",
            open: { () throws(ZMQError) -> ZMQSocket in
                threads.value["open"] = pthread_self()
                let socket = try ZMQSocket(context, type: .rep, linger: 0)
                try socket.bind("tcp://127.0.0.1:*")
                return socket
            },
            report: { socket in
                threads.value["report"] = pthread_self()
                return (try? socket.lastEndpoint) ?? ""
            },
            run: { socket in
                threads.value["run"] = pthread_self()
                defer { socket.close() }
                var message = ZMQMessage()
                try? socket.set(.receiveTimeout, Int32(5000))
                guard (try? socket.receive(into: &message)) == true else { return }
                echoed.value = String(decoding: message.bytes, as: UTF8.self)
                _ = try? socket.send(Array("done".utf8))
            }
        )
        XCTAssertTrue(endpoint.hasPrefix("tcp://127.0.0.1:"), endpoint)
        let client = try ZMQSocket(context, type: .req, linger: 0)
        defer { client.close() }
        try client.connect(endpoint)
        _ = try client.send(Array("hello".utf8))
        finished.wait()
        XCTAssertEqual(echoed.value, "hello")
        let seen = threads.value
        XCTAssertEqual(seen.count, 3)
        XCTAssertTrue(seen.values.allSatisfy { pthread_equal($0, seen["open"]!) != 0 })
        XCTAssertEqual(pthread_equal(seen["open"]!, pthread_self()), 0, "the sockets belong to the new thread")
    }

    /// `open`'s error reaches the starter, typed; `run` never runs.
    func testAnErrorInOpenIsThrownToTheStarterAndRunNeverRuns() {
        let ran = Locked(false)
        do {
            _ = try SocketThread.start(
                name: "test-socket-thread",
                open: { () throws(Refused) -> Int in throw Refused(endpoint: "tcp://nowhere:1") },
                report: { $0 },
                run: { _ in ran.value = true }
            )
            XCTFail("start returned")
        } catch {
            XCTAssertEqual(error, Refused(endpoint: "tcp://nowhere:1"))
        }
        XCTAssertFalse(ran.value)
    }
}
