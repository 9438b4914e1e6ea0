import Foundation
import XCTest
import ZeroMQ

final class ContextTests: XCTestCase {
    func testShutdownWakesThreadBlockedInReceiveWithETERM() throws {
        let context = try ZMQContext(ioThreads: 1)
        let ready = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Bool, ZMQError>?>(nil)
        startThread {
            let result = Result { () throws(ZMQError) -> Bool in
                let socket = try ZMQSocket(context, type: .pull)
                try socket.bind("inproc://blocked")
                ready.signal()
                var message = ZMQMessage()
                return try socket.receive(into: &message)  // no timeout: blocks until woken
            }
            outcome.value = result  // the socket was closed when the closure above returned
            done.signal()
        }
        XCTAssertEqual(ready.wait(timeout: .now() + 5), .success)
        Thread.sleep(forTimeInterval: 0.02)  // let it enter zmq_msg_recv (ETERM either way)
        XCTAssertFalse(context.isShutDown)
        context.shutdown()
        XCTAssertTrue(context.isShutDown)
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success, "the blocked receive was not woken")
        XCTAssertThrowsError(try outcome.value?.get()) { error in
            let error = error as? ZMQError
            XCTAssertEqual(error?.isTerminated, true, "\(String(describing: error))")
            XCTAssertEqual(error?.operation, "zmq_msg_recv")
        }
        // No new socket on a shut-down context.
        XCTAssertThrowsError(try ZMQSocket(context, type: .pub)) { error in
            XCTAssertEqual((error as? ZMQError)?.isTerminated, true)
        }
        context.shutdown()  // again: nothing
        context.terminate()
        context.terminate()  // idempotent
    }

    func testTerminateWakesBlockedReceiveAndWaitsForItsSocketToClose() throws {
        let context = try ZMQContext()
        let ready = DispatchSemaphore(value: 0)
        let woken = Locked<Bool>(false)
        let closedAt = Locked<ContinuousClock.Instant?>(nil)
        startThread {
            guard let socket = try? ZMQSocket(context, type: .sub) else { return }
            do {
                try socket.connect("inproc://nobody")
                ready.signal()
                var message = ZMQMessage()
                _ = try socket.receive(into: &message)
            } catch {
                woken.value = (error as? ZMQError)?.isTerminated == true
                Thread.sleep(forTimeInterval: 0.1)  // the socket is still open: terminate() must wait
            }
            closedAt.value = ContinuousClock.now
            socket.close()
        }
        XCTAssertEqual(ready.wait(timeout: .now() + 5), .success)
        context.terminate()
        let returnedAt = ContinuousClock.now
        XCTAssertTrue(woken.value)
        let closed = try XCTUnwrap(closedAt.value, "terminate() returned before the socket was closed")
        XCTAssertLessThanOrEqual(closed, returnedAt)
        XCTAssertTrue(context.isShutDown)
    }

    func testVersionAndCapabilities() {
        let version = ZMQ.version
        XCTAssertEqual(version.major, 4)
        XCTAssertGreaterThanOrEqual(version, ZMQVersion(major: 4, minor: 3, patch: 0))
        XCTAssertEqual(version.description, "\(version.major).\(version.minor).\(version.patch)")
        XCTAssertTrue(ZMQ.has("ipc"))
        XCTAssertFalse(ZMQ.has("no-such-capability"))
    }

    func testCurveKeyPairAndEncryptedLink() throws {
        try XCTSkipUnless(ZMQ.has("curve"), "libzmq built without CURVE")
        let server = try ZMQ.curveKeyPair()
        let client = try ZMQ.curveKeyPair()
        XCTAssertEqual(server.publicKey.utf8.count, 40)
        XCTAssertEqual(server.secretKey.utf8.count, 40)
        XCTAssertNotEqual(server.publicKey, client.publicKey)

        let context = try ZMQContext()
        let receiver = try ZMQSocket(context, type: .pull)
        try receiver.set(.curveServer, true)
        try receiver.set(.curveSecretKey, server.secretKey)
        try receiver.bind("tcp://127.0.0.1:*")
        let sender = try ZMQSocket(context, type: .push)
        try sender.set(.curveServerKey, server.publicKey)
        try sender.set(.curvePublicKey, client.publicKey)
        try sender.set(.curveSecretKey, client.secretKey)
        XCTAssertEqual(try sender.get(.curvePublicKey), client.publicKey)
        try sender.connect(try receiver.lastEndpoint)
        try sender.send("sealed")
        try receiver.set(.receiveTimeout, 3000)
        XCTAssertEqual(try receiver.receiveString(), "sealed")
    }
}
