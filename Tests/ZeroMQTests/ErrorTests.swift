import Foundation
import XCTest
import ZeroMQ

final class ErrorTests: XCTestCase {
    func testBindErrorsKeepErrnoOperationAndReason() throws {
        let context = try ZMQContext()
        let first = try ZMQSocket(context, type: .pub)
        try first.bind("tcp://127.0.0.1:*")
        let endpoint = try first.lastEndpoint
        let second = try ZMQSocket(context, type: .pub)
        XCTAssertThrowsError(try second.bind(endpoint)) { error in
            let error = error as? ZMQError
            XCTAssertEqual(error?.errno, EADDRINUSE)
            XCTAssertEqual(error?.operation, "zmq_bind(\(endpoint))")
            XCTAssertEqual(error?.reason, String(cString: strerror(EADDRINUSE)))
            XCTAssertEqual(
                error?.description,
                "zmq_bind(\(endpoint)): \(String(cString: strerror(EADDRINUSE))) (errno \(EADDRINUSE))"
            )
            XCTAssertEqual(error?.isAgain, false)
            XCTAssertEqual(error?.isTerminated, false)
        }
        XCTAssertThrowsError(try second.connect("nonsense://x")) { error in
            XCTAssertEqual((error as? ZMQError)?.errno, EPROTONOSUPPORT)
        }
        XCTAssertThrowsError(try second.bind("tcp://127.0.0.1")) { error in
            XCTAssertEqual((error as? ZMQError)?.errno, EINVAL)
        }
    }

    func testUnbindAndDisconnect() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, type: .pull)
        try socket.bind("tcp://127.0.0.1:*")
        let endpoint = try socket.lastEndpoint
        try socket.unbind(endpoint)
        XCTAssertThrowsError(try socket.unbind(endpoint)) { error in
            XCTAssertEqual((error as? ZMQError)?.errno, ENOENT)
        }
        // The listener closes on libzmq's I/O thread soon after: the port becomes free again.
        let other = try ZMQSocket(context, type: .push)
        let deadline = ContinuousClock.now + .seconds(2)
        while case .failure(let error) = Result(catching: { () throws(ZMQError) in try other.bind(endpoint) }) {
            guard error.errno == EADDRINUSE, ContinuousClock.now < deadline else { throw error }
            Thread.sleep(forTimeInterval: 0.005)
        }
        let client = try ZMQSocket(context, type: .pull)
        try client.connect(endpoint)
        try client.disconnect(endpoint)
        XCTAssertThrowsError(try client.disconnect(endpoint)) { error in
            XCTAssertEqual((error as? ZMQError)?.errno, ENOENT)
        }
    }

    func testErrorCodesAreDistinctAndExtensible() {
        let custom = ZMQError(code: .invalidArgument, errno: EINVAL, operation: "mine")
        XCTAssertEqual(custom, ZMQError(code: .invalidArgument, errno: EINVAL, operation: "mine"))
        XCTAssertNotEqual(custom, ZMQError(code: .callFailed, errno: EINVAL, operation: "mine"))
        XCTAssertEqual(Set([ZMQError.Code.callFailed, .socketClosed, .invalidArgument, .protocolViolation]).count, 4)
        XCTAssertTrue(ZMQError(code: .callFailed, errno: EINTR, operation: "x").isInterrupted)
    }
}
