import Dispatch
import Synchronization
import ZeroMQ

/// The bench's publisher, on its own thread with its own context (one I/O thread,
/// like an app's): an `XPUB` that connects to `endpoint`, waits for the subscriber's
/// subscription (the slow joiner), sends warm-up messages until told to go, then the
/// measured messages as fast as it can or paced at a fixed rate. `XPUB_NODROP` makes a
/// full pipe block the sender instead of dropping, so every message arrives.
final class EventSender: Sendable {
    /// What the sender did.
    struct Report: Sendable {
        /// Warm-up events sent before `go`.
        var warmupEvents = 0
        /// Warm-up messages sent before `go`.
        var warmupMessages = 0
        /// When the first measured message was handed to libzmq (monotonic ns).
        var firstSend: UInt64 = 0
        /// When the last measured message was handed to libzmq.
        var lastSend: UInt64 = 0
        /// Per stamped message: when it was handed to libzmq.
        var stamps: [UInt64] = []
        /// Per stamped message: when the pacing meant to send it.
        var intended: [UInt64] = []
        /// How far behind its schedule the paced sender fell at worst (ns).
        var maxLag: UInt64 = 0
        /// Why it stopped early, if it did.
        var failure: String?
    }

    /// A fixed offered rate, and which messages to stamp.
    struct Pacing: Sendable {
        /// Messages per second.
        var messagesPerSecond: Double
        /// Stamp the messages whose index `i` has `i % stampEvery == stampEvery - 1`.
        var stampEvery: Int
    }

    private let endpoint: String
    private let warmup: MessageSet
    private let prefill: MessageSet?
    private let messages: MessageSet
    private let pacing: Pacing?
    private let sendHighWaterMark: Int32
    private let subscribed = DispatchSemaphore(value: 0)
    private let goSignal = DispatchSemaphore(value: 0)
    private let started = DispatchSemaphore(value: 0)
    private let finishSignal = DispatchSemaphore(value: 0)
    private let finishing = Atomic(false)
    private let report = Mutex(Report())
    private let thread = Mutex<BenchThread?>(nil)

    /// A sender of `messages` to `endpoint`, warming up with `warmup` (cycled); `prefill`,
    /// if any, goes once before the warm-up (and counts as warm-up events).
    init(
        endpoint: String,
        warmup: MessageSet,
        messages: MessageSet,
        pacing: Pacing? = nil,
        sendHighWaterMark: Int32 = 10_000,
        prefill: MessageSet? = nil
    ) {
        self.endpoint = endpoint
        self.warmup = warmup
        self.prefill = prefill
        self.messages = messages
        self.pacing = pacing
        self.sendHighWaterMark = sendHighWaterMark
    }

    /// Starts the thread; returns once the subscriber's subscription arrived (or throws after `timeoutMs`).
    func start(timeoutMs: Int = 10_000) throws(BenchError) {
        thread.withLock { $0 = BenchThread(name: "bench-sender") { [self] in run() } }
        if subscribed.wait(timeout: .now() + .milliseconds(timeoutMs)) == .timedOut {
            finish()
            throw BenchError("no subscriber subscribed at \(endpoint) within \(timeoutMs) ms")
        }
        if let failure = report.withLock({ $0.failure }) {
            finish()
            throw BenchError(failure)
        }
    }

    /// Ends the warm-up: the measured messages go now. Returns once the first is sent.
    func go() {
        goSignal.signal()
        started.wait()
    }

    /// Waits for the last measured message to be handed to libzmq, and returns the report so far.
    func waitSent() -> Report {
        while report.withLock({ $0.lastSend == 0 && $0.failure == nil }) { MonotonicClock.sleep(milliseconds: 1) }
        return report.withLock { $0 }
    }

    /// What was sent so far.
    var currentReport: Report { report.withLock { $0 } }

    /// Closes the socket (whatever is still queued is dropped) and joins the thread.
    func finish() {
        finishing.store(true, ordering: .sequentiallyConsistent)
        finishSignal.signal()
        goSignal.signal()
        let running = thread.withLock { $0 }
        running?.join()
    }

    private func fail(_ message: String) {
        report.withLock {
            $0.failure = message
            if $0.lastSend == 0 { $0.lastSend = MonotonicClock.nanoseconds() }
        }
        subscribed.signal()
        started.signal()
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
            socket = try ZMQSocket(context, type: .xpub, linger: 0)
            try socket.set(.sendHighWaterMark, sendHighWaterMark)
            try socket.set(.xpubNoDrop, true)
            try socket.set(.receiveTimeout, 50)
            try socket.set(.sendTimeout, 200)
            try socket.connect(endpoint)
        } catch {
            fail("cannot connect an XPUB to \(endpoint): \(error)")
            return
        }
        defer { socket.close() }
        // The slow joiner: wait for the subscription itself.
        var frame = ZMQMessage()
        while true {
            do {
                if try socket.receive(into: &frame) { break }
            } catch {
                if !error.isAgain {
                    fail("waiting for the subscription failed: \(error)")
                    return
                }
            }
            if finishing.load(ordering: .sequentiallyConsistent) { return }
        }
        subscribed.signal()
        do {
            try messages.bytes.withUnsafeBytes { all in
                try warmUp(socket)
                if finishing.load(ordering: .sequentiallyConsistent) { return }
                if let pacing {
                    try sendPaced(socket, all, pacing)
                } else {
                    try sendAll(socket, all)
                }
            }
        } catch {
            fail("sending failed: \(error)")
            return
        }
        finishSignal.wait()
    }

    /// A blocking send that gives up (false) only when the bench is finishing.
    private func send(_ socket: ZMQSocket, _ bytes: UnsafeRawBufferPointer) throws(ZMQError) -> Bool {
        while true {
            do {
                return try socket.send(bytes)
            } catch {
                guard error.isAgain else { throw error }
                if finishing.load(ordering: .sequentiallyConsistent) { return false }
            }
        }
    }

    private func warmUp(_ socket: ZMQSocket) throws {
        var sent = 0
        var events = 0
        if let prefill {
            let done = try prefill.bytes.withUnsafeBytes { all in
                for i in 0..<prefill.count {
                    guard
                        try send(
                            socket,
                            UnsafeRawBufferPointer(rebasing: all[prefill.offsets[i]..<prefill.offsets[i + 1]])
                        )
                    else { return false }
                }
                return true
            }
            if !done { return }
            sent = prefill.count
            events = prefill.events
            report.withLock {
                $0.warmupEvents = events
                $0.warmupMessages = sent
            }
        }
        var cycled = 0
        while true {
            if warmup.count > 0 {
                let index = cycled % warmup.count
                let done = try warmup.bytes.withUnsafeBytes { all in
                    try send(
                        socket,
                        UnsafeRawBufferPointer(rebasing: all[warmup.offsets[index]..<warmup.offsets[index + 1]])
                    )
                }
                if !done { return }
                cycled += 1
                sent += 1
                events += (warmup.events + warmup.count - 1) / warmup.count
                report.withLock {
                    $0.warmupEvents = events
                    $0.warmupMessages = sent
                }
            }
            if goSignal.wait(timeout: .now() + .milliseconds(20)) == .success { return }
        }
    }

    private func sendAll(_ socket: ZMQSocket, _ all: UnsafeRawBufferPointer) throws {
        let offsets = messages.offsets
        let first = MonotonicClock.nanoseconds()
        report.withLock { $0.firstSend = first }
        started.signal()
        for i in 0..<messages.count {
            guard try send(socket, UnsafeRawBufferPointer(rebasing: all[offsets[i]..<offsets[i + 1]])) else { return }
        }
        let last = MonotonicClock.nanoseconds()
        report.withLock { $0.lastSend = last }
    }

    private func sendPaced(_ socket: ZMQSocket, _ all: UnsafeRawBufferPointer, _ pacing: Pacing) throws {
        let offsets = messages.offsets
        let count = messages.count
        let interval = 1e9 / pacing.messagesPerSecond
        var stamps = [UInt64](repeating: 0, count: count / pacing.stampEvery)
        var intended = stamps
        var maxLag: UInt64 = 0
        let start = MonotonicClock.nanoseconds()
        report.withLock { $0.firstSend = start }
        started.signal()
        var i = 0
        while i < count {
            let now = MonotonicClock.nanoseconds()
            let due = min(count, Int(Double(now - start) / interval) + 1)
            if i >= due {
                MonotonicClock.sleep(until: start + UInt64(Double(i) * interval))
                continue
            }
            let scheduled = start + UInt64(Double(i) * interval)
            if now > scheduled { maxLag = max(maxLag, now - scheduled) }
            while i < due {
                if i % pacing.stampEvery == pacing.stampEvery - 1 {
                    let slot = i / pacing.stampEvery
                    if slot < stamps.count {
                        intended[slot] = start + UInt64(Double(i) * interval)
                        stamps[slot] = MonotonicClock.nanoseconds()
                    }
                }
                guard try send(socket, UnsafeRawBufferPointer(rebasing: all[offsets[i]..<offsets[i + 1]])) else {
                    return
                }
                i += 1
            }
        }
        let last = MonotonicClock.nanoseconds()
        report.withLock { [stamps, intended] in
            $0.lastSend = last
            $0.stamps = stamps
            $0.intended = intended
            $0.maxLag = maxLag
        }
    }
}
