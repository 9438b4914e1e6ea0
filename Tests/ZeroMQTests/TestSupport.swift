import Foundation
import Synchronization
import XCTest
import ZeroMQ

/// A value shared between a test and the thread it starts.
final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) {
        self.storage = Mutex(value)
    }

    var value: Value {
        get { self.storage.withLock { $0 } }
        set { self.storage.withLock { $0 = newValue } }
    }
}

/// Runs `body` on a new thread (sockets are made inside it: they never cross threads).
func startThread(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.start()
}

extension ZMQSocket {
    /// Receives one single-frame message as a string, failing the test on a multipart one.
    func receiveString(file: StaticString = #filePath, line: UInt = #line) throws -> String? {
        guard let message = try self.receiveMultipart() else { return nil }
        XCTAssertEqual(message.frameCount, 1, "expected one frame", file: file, line: line)
        return String(decoding: message.frames[0], as: UTF8.self)
    }

    /// Receives the next message that is not `probe`, waiting at most `timeoutMilliseconds` each.
    func receiveString(skipping probe: String, timeoutMilliseconds: Int32 = 2000) throws -> String {
        try self.set(.receiveTimeout, timeoutMilliseconds)
        while true {
            guard let text = try self.receiveString() else { continue }
            if text != probe { return text }
        }
    }
}

/// Handles the slow joiner: a subscription reaches the publisher some time after `connect` and
/// `subscribe` return, and a `PUB` drops what nobody is subscribed to yet. So publish `probe`
/// again and again until the subscriber gets one, within `timeout`.
///
/// Probes still in flight arrive before anything published later (a `PUB`–`SUB` link keeps
/// order); read past them with ``ZMQSocket/receiveString(skipping:timeoutMilliseconds:)``.
func awaitSubscription(
    publisher: ZMQSocket,
    subscriber: ZMQSocket,
    probe: String,
    timeout: Duration = .seconds(5),
    file: StaticString = #filePath,
    line: UInt = #line
) throws {
    let poller = ZMQPoller()
    try poller.add(subscriber)
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        try publisher.send(probe)
        if try poller.poll(timeout: 10) > 0 {
            XCTAssertEqual(try subscriber.receiveString(), probe, file: file, line: line)
            return
        }
    }
    XCTFail("subscription not effective within \(timeout)", file: file, line: line)
    throw ZMQError(code: .callFailed, errno: EAGAIN, operation: "awaitSubscription")
}

/// An endpoint nobody listens on, ever: a fresh `ipc://` path that is never bound.
/// (A TCP port just released by `close()` or `unbind` may still accept for a moment: libzmq
/// closes listeners on its I/O thread.)
func unboundEndpoint() -> String {
    "ipc:///tmp/zeromq-tests-nobody-\(UUID().uuidString).sock"
}
