import Foundation
import Glibc
import XCTest
import ZeroMQ

/// Signals that interrupt a blocking libzmq call (`EINTR`): a receive retries, a poll returns 0.
final class InterruptionTests: XCTestCase {
    override func setUp() {
        // SIGUSR1 then interrupts blocking calls instead of killing the test process.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        sigaction(SIGUSR1, &action, nil)
    }

    func testSignalInterruptingPollReturnsZero() throws {
        let context = try ZMQContext()
        let pollingThread = Locked<pthread_t?>(nil)
        let outcome = Locked<Result<Int, ZMQError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        startThread {
            outcome.value = Result { () throws(ZMQError) -> Int in
                let socket = try ZMQSocket(context, type: .pull)
                try socket.bind("inproc://interrupted-poll")
                let poller = ZMQPoller()
                try poller.add(socket)
                pollingThread.value = pthread_self()
                return try poller.poll(timeout: 10_000)
            }
            done.signal()
        }
        let start = ContinuousClock.now
        while done.wait(timeout: .now() + .milliseconds(10)) == .timedOut {
            if let thread = pollingThread.value {
                pthread_kill(thread, SIGUSR1)
            }
            guard ContinuousClock.now - start < .seconds(5) else {
                XCTFail("the signal did not end the poll")
                context.shutdown()
                return
            }
        }
        XCTAssertEqual(try outcome.value?.get(), 0)
    }

    func testSignalInterruptingReceiveIsRetried() throws {
        let context = try ZMQContext()
        let receivingThread = Locked<pthread_t?>(nil)
        let outcome = Locked<Result<String?, ZMQError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        startThread {
            outcome.value = Result { () throws(ZMQError) -> String? in
                let socket = try ZMQSocket(context, type: .pull)
                try socket.bind("inproc://interrupted-receive")
                try socket.set(.receiveTimeout, 5000)
                receivingThread.value = pthread_self()
                ready.signal()
                var message = ZMQMessage()
                guard try socket.receive(into: &message) else { return nil }
                return String(decoding: message.bytes, as: UTF8.self)
            }
            done.signal()
        }
        XCTAssertEqual(ready.wait(timeout: .now() + 5), .success)
        let thread = try XCTUnwrap(receivingThread.value)
        for _ in 0..<5 {
            pthread_kill(thread, SIGUSR1)
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(done.wait(timeout: .now()), .timedOut, "a signal must not end a blocking receive")
        let sender = try ZMQSocket(context, type: .push)
        try sender.connect("inproc://interrupted-receive")
        try sender.send("after the signals")
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(try outcome.value?.get(), "after the signals")
    }
}
