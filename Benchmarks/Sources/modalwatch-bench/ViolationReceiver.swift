import Dispatch
import Synchronization
import ZeroMQ

/// The latency run's subscriber: a `SUB` connected to the daemon's violations `PUB`,
/// subscribed to one topic, on its own thread. For each violation about a probe
/// session (`bench-probe-NNNNNNNN`) it notes when it arrived; warm-up probes
/// (`bench-warm-…`) are counted only.
final class ViolationReceiver: Sendable {
    /// What arrived.
    struct Report: Sendable {
        /// Per probe: when its violation arrived (monotonic ns), 0 if it did not.
        var arrivals: [UInt64] = []
        /// Violations about probes, counted once each.
        var probes = 0
        /// Violations about warm-up probes.
        var warmups = 0
        /// Other messages on the topic.
        var others = 0
        /// Why it stopped early, if it did.
        var failure: String?
    }

    /// The probe sessions' id prefix; eight decimal digits follow.
    static let probePrefix = "bench-probe-"
    /// The warm-up probes' session id prefix.
    static let warmupPrefix = "bench-warm-"

    private let endpoint: String
    private let topic: String
    private let probeCount: Int
    private let warmupsSeen = Atomic(0)
    private let probesSeen = Atomic(0)
    private let finishing = Atomic(false)
    private let connected = DispatchSemaphore(value: 0)
    private let report = Mutex(Report())
    private let thread = Mutex<BenchThread?>(nil)

    /// A receiver of `topic` from `endpoint`, for `probes` probes.
    init(endpoint: String, topic: String, probes: Int) {
        self.endpoint = endpoint
        self.topic = topic
        self.probeCount = probes
    }

    /// Starts the thread; returns once its socket is connected.
    func start() throws(BenchError) {
        thread.withLock { $0 = BenchThread(name: "bench-violations") { [self] in run() } }
        connected.wait()
        if let failure = report.withLock({ $0.failure }) { throw BenchError(failure) }
    }

    /// Warm-up violations received so far.
    var warmupsReceived: Int { warmupsSeen.load(ordering: .acquiring) }

    /// Probe violations received so far.
    var probesReceived: Int { probesSeen.load(ordering: .acquiring) }

    /// Stops and reports.
    func finish() -> Report {
        finishing.store(true, ordering: .releasing)
        thread.withLock { $0 }?.join()
        return report.withLock { $0 }
    }

    private func run() {
        let context: ZMQContext
        do { context = try ZMQContext(ioThreads: 1) } catch {
            report.withLock { $0.failure = "cannot create a ZeroMQ context: \(error)" }
            connected.signal()
            return
        }
        defer { context.terminate() }
        let socket: ZMQSocket
        do {
            socket = try ZMQSocket(context, type: .sub, linger: 0)
            try socket.set(.receiveHighWaterMark, 100_000)
            try socket.set(.receiveTimeout, 50)
            try socket.subscribe(topic)
            try socket.connect(endpoint)
        } catch {
            report.withLock { $0.failure = "cannot subscribe to \(endpoint): \(error)" }
            connected.signal()
            return
        }
        defer { socket.close() }
        connected.signal()
        var arrivals = [UInt64](repeating: 0, count: probeCount)
        var probes = 0
        var warmups = 0
        var others = 0
        var frame = ZMQMessage()
        let probeNeedle = Array("\"session\":\"\(Self.probePrefix)".utf8)
        let warmupNeedle = Array("\"session\":\"\(Self.warmupPrefix)".utf8)
        while !finishing.load(ordering: .acquiring) {
            do {
                guard try socket.receive(into: &frame) else { continue }
                let now = MonotonicClock.nanoseconds()
                // Topic frame, then the violation.
                guard frame.hasMore, try socket.receive(into: &frame) else {
                    others += 1
                    continue
                }
                let index: Int? = frame.withBytes { bytes in
                    if let at = Self.find(probeNeedle, in: bytes) {
                        return Self.digits(bytes, from: at + probeNeedle.count, count: 8)
                    }
                    if Self.find(warmupNeedle, in: bytes) != nil { return -1 }
                    return nil
                }
                switch index {
                case .some(-1):
                    warmups += 1
                    warmupsSeen.store(warmups, ordering: .releasing)
                case .some(let i) where i >= 0 && i < arrivals.count && arrivals[i] == 0:
                    arrivals[i] = now
                    probes += 1
                    probesSeen.store(probes, ordering: .releasing)
                default:
                    others += 1
                }
            } catch {
                if !error.isAgain {
                    report.withLock { $0.failure = "receiving violations failed: \(error)" }
                    break
                }
            }
        }
        report.withLock { [arrivals, probes, warmups, others] in
            $0.arrivals = arrivals
            $0.probes = probes
            $0.warmups = warmups
            $0.others = others
        }
    }

    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var i = 0
        while i <= bytes.count - needle.count {
            var j = 0
            while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
            if j == needle.count { return i }
            i += 1
        }
        return nil
    }

    private static func digits(_ bytes: UnsafeRawBufferPointer, from start: Int, count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for i in start..<(start + count) {
            let byte = bytes[i]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}
