import Dispatch
import Synchronization
import ZeroMQ

/// The ceiling's subscriber: a `SUB` bound on loopback TCP, on its own thread with its
/// own context, that receives every message and does nothing with it (it reads the
/// size only). Its socket options are the daemon's ingest socket's.
final class SinkReceiver: Sendable {
    /// What the receiver saw.
    struct Report: Sendable {
        /// Messages received.
        var messages = 0
        /// Bytes received.
        var bytes = 0
        /// When the last expected message arrived (monotonic ns); 0 if it never did.
        var last: UInt64 = 0
        /// Why it stopped early, if it did.
        var failure: String?
    }

    private let target = Atomic(0)
    private let received = Atomic(0)
    private let finishing = Atomic(false)
    private let bound = DispatchSemaphore(value: 0)
    private let endpointBox = Mutex("")
    private let report = Mutex(Report())
    private let thread = Mutex<BenchThread?>(nil)

    /// A receiver; `start()` binds it.
    init() {}

    /// Starts the thread and returns the endpoint it bound.
    func start() throws(BenchError) -> String {
        thread.withLock { $0 = BenchThread(name: "bench-sink") { [self] in run() } }
        bound.wait()
        if let failure = report.withLock({ $0.failure }) { throw BenchError(failure) }
        return endpointBox.withLock { $0 }
    }

    /// Messages received so far.
    var messagesReceived: Int { received.load(ordering: .acquiring) }

    /// Stops once `messages` messages in all have arrived.
    func expect(messages: Int) {
        target.store(messages, ordering: .releasing)
    }

    /// Waits until the expected messages arrived (or `timeoutMs` passed), stops, and reports.
    func finish(timeoutMs: Int) -> Report {
        let deadline = MonotonicClock.nanoseconds() + UInt64(timeoutMs) * 1_000_000
        while report.withLock({ $0.failure == nil }),
            received.load(ordering: .acquiring) < target.load(ordering: .acquiring),
            MonotonicClock.nanoseconds() < deadline
        {
            MonotonicClock.sleep(milliseconds: 2)
        }
        finishing.store(true, ordering: .releasing)
        thread.withLock { $0 }?.join()
        return report.withLock { $0 }
    }

    private func fail(_ message: String) {
        report.withLock { $0.failure = message }
        bound.signal()
    }

    private func run() {
        let context: ZMQContext
        do { context = try ZMQContext(ioThreads: 1) } catch {
            fail("cannot create a ZeroMQ context: \(error)")
            return
        }
        defer { context.terminate() }
        let socket: ZMQSocket
        do {
            socket = try ZMQSocket(context, type: .sub, linger: 0)
            try socket.set(.receiveHighWaterMark, 10_000)
            try socket.set(.maxMessageSize, 1 << 20)
            try socket.set(.receiveTimeout, 100)
            try socket.subscribe("")
            try socket.bind("tcp://127.0.0.1:*")
            let endpoint = try socket.lastEndpoint
            endpointBox.withLock { $0 = endpoint }
        } catch {
            fail("cannot bind the ceiling's SUB socket: \(error)")
            return
        }
        defer { socket.close() }
        bound.signal()
        var message = ZMQMessage()
        var count = 0
        var bytes = 0
        var last: UInt64 = 0
        while true {
            do {
                if try socket.receive(into: &message) {
                    count += 1
                    bytes += message.count
                    received.store(count, ordering: .releasing)
                    let wanted = target.load(ordering: .acquiring)
                    if wanted > 0 && count >= wanted {
                        last = MonotonicClock.nanoseconds()
                        break
                    }
                    continue
                }
            } catch {
                if !error.isAgain {
                    report.withLock { $0.failure = "receive failed: \(error)" }
                    break
                }
            }
            if finishing.load(ordering: .acquiring) { break }
        }
        report.withLock { [count, bytes, last] in
            $0.messages = count
            $0.bytes = bytes
            $0.last = last
        }
    }
}
