import ConnectionLimits
import Logging
import ZeroMQ

/// The forwarder's proxy loop, on the thread that owns its three sockets (``ForwardingThread``):
/// producers' messages from the frontend (`XSUB`) to the backend (`XPUB`), whole multipart
/// messages moved frame by frame without a copy; the daemons' subscriptions from the backend to
/// the frontend through a ``SubscriptionGuard``, so that only those kept within its bounds go
/// upstream (and their ends); steered on the control `PAIR` with the commands of
/// `zmq_proxy_steerable` (``Command``).
///
/// The backend runs with `ZMQ_XPUB_VERBOSER`: every subscription of every connection comes up
/// with its connection, to be counted. The frontend (`XSUB`) counts a topic subscribed more than
/// once and unsubscribes upstream only when the last goes.
final class ForwardingProxy {
    /// The control commands, as `zmq_proxy_steerable` has them.
    enum Command: String, Sendable {
        /// Stop moving messages and subscriptions (they queue in libzmq).
        case pause = "PAUSE"
        /// Move them again.
        case resume = "RESUME"
        /// Return from ``run()``.
        case terminate = "TERMINATE"
        /// Reply with the counters (``Statistics/frames``).
        case statistics = "STATISTICS"
    }

    /// The counters: messages and bytes each socket received and sent, and the subscriptions the
    /// guard refused.
    struct Statistics: Sendable, Equatable {
        /// Messages the frontend received (producers' messages).
        var frontendMessagesIn: UInt64 = 0
        /// Bytes the frontend received.
        var frontendBytesIn: UInt64 = 0
        /// Messages the frontend sent (subscriptions and unsubscriptions going upstream).
        var frontendMessagesOut: UInt64 = 0
        /// Bytes the frontend sent.
        var frontendBytesOut: UInt64 = 0
        /// Messages the backend received (the daemons' subscriptions and unsubscriptions).
        var backendMessagesIn: UInt64 = 0
        /// Bytes the backend received.
        var backendBytesIn: UInt64 = 0
        /// Messages the backend sent (forwarded to the daemons).
        var backendMessagesOut: UInt64 = 0
        /// Bytes the backend sent.
        var backendBytesOut: UInt64 = 0
        /// Subscriptions the backend's guard refused (`subscriptions_refused`).
        var subscriptionsRefused: UInt64 = 0

        init() {}

        /// The reply to ``Command/statistics``: nine frames of eight bytes, in the order of the fields.
        var frames: [[UInt8]] {
            [
                frontendMessagesIn, frontendBytesIn, frontendMessagesOut, frontendBytesOut,
                backendMessagesIn, backendBytesIn, backendMessagesOut, backendBytesOut, subscriptionsRefused,
            ]
            .map { value in withUnsafeBytes(of: value) { Array($0) } }
        }

        /// The counters from a ``Command/statistics`` reply, or nil.
        init?(frames: [[UInt8]]) {
            guard frames.count == 9, frames.allSatisfy({ $0.count == 8 }) else { return nil }
            let values = frames.map { frame in frame.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } }
            (frontendMessagesIn, frontendBytesIn, frontendMessagesOut, frontendBytesOut) = (
                values[0], values[1], values[2], values[3]
            )
            (backendMessagesIn, backendBytesIn, backendMessagesOut, backendBytesOut) = (
                values[4], values[5], values[6], values[7]
            )
            subscriptionsRefused = values[8]
        }
    }

    /// Most producers' messages moved in one turn before the backend and the control socket are read.
    static let burst = 1_000
    /// The longest wait in one poll: the guard looks for connections gone at least this often.
    static let pollIntervalMs = 100

    private let front: ZMQSocket
    private let back: ZMQSocket
    private let steer: ZMQSocket
    private let subscriptions: SubscriptionGuard
    private var statistics = Statistics()
    /// The frame being moved, reused for every one.
    private var frame = ZMQMessage()
    private var paused = false

    /// The loop over the three sockets, all of the calling thread's; `backendEndpoint` is the
    /// endpoint the backend bound (the guard checks a connection's socket is on its port).
    init(
        front: ZMQSocket,
        back: ZMQSocket,
        steer: ZMQSocket,
        backendEndpoint: String,
        limits: SubscriptionGuard.Limits = .defaults,
        logger: Logger
    ) {
        self.front = front
        self.back = back
        self.steer = steer
        subscriptions = SubscriptionGuard(
            limits: limits,
            name: ForwardingThread.backendGuardName,
            boundEndpoint: backendEndpoint,
            logger: logger
        )
    }

    /// Moves messages and subscriptions until ``Command/terminate`` arrives.
    ///
    /// - Throws: ``ZMQError``; ``ZMQError/isTerminated`` when the context was shut down instead.
    func run() throws(ZMQError) {
        let running = ZMQPoller()
        let control = try running.add(steer)
        let frontend = try running.add(front)
        _ = try running.add(back)  // the subscriptions it carries are served every turn (serveSubscriptions)
        // Paused, only the control socket is waited on (the others would be readable at once).
        let waiting = ZMQPoller()
        try waiting.add(steer)
        var moreWaiting = false
        while true {
            let poller = paused ? waiting : running
            _ = try poller.poll(timeout: moreWaiting ? 0 : Self.pollIntervalMs)
            moreWaiting = false
            if poller.isReadable(control) {
                if try !command() { return }
            }
            if paused { continue }
            if running.isReadable(frontend), try moveMessages() { moreWaiting = true }
            // Every turn (not only when readable): the guard also sweeps connections gone.
            if try serveSubscriptions() { moreWaiting = true }
        }
    }

    /// One command from the control socket; false for ``Command/terminate``. An unknown one is
    /// ignored, as `zmq_proxy_steerable` does.
    private func command() throws(ZMQError) -> Bool {
        guard let message = try steer.receiveMultipart(maxFrames: 1, dontWait: true),
            let first = message.frames.first
        else { return true }
        switch Command(rawValue: String(decoding: first, as: UTF8.self)) {
        case .pause: paused = true
        case .resume: paused = false
        case .terminate: return false
        case .statistics:
            statistics.backendMessagesIn = subscriptions.framesRead
            statistics.backendBytesIn = subscriptions.bytesRead
            statistics.subscriptionsRefused = subscriptions.refused
            try steer.sendMultipart(statistics.frames)
        case nil: break
        }
        return true
    }

    /// Moves up to ``burst`` whole messages from the frontend to the backend; whether that many
    /// were moved (more may wait). The backend (an `XPUB`) never blocks a send: a daemon past its
    /// high-water mark misses the message, as with `zmq_proxy`.
    private func moveMessages() throws(ZMQError) -> Bool {
        for _ in 0..<Self.burst {
            guard try front.receive(into: &frame, dontWait: true) else { return false }
            var bytes = 0
            while true {
                let more = frame.hasMore
                bytes += frame.count
                try back.send(&frame, flags: more ? [.more] : [])
                guard more else { break }
                // The rest of a multipart message arrives with its first frame.
                guard try front.receive(into: &frame, dontWait: true) else { break }
            }
            statistics.frontendMessagesIn += 1
            statistics.frontendBytesIn += UInt64(bytes)
            statistics.backendMessagesOut += 1
            statistics.backendBytesOut += UInt64(bytes)
        }
        return true
    }

    /// Reads the backend's (un)subscriptions through the guard and sends upstream what it kept
    /// and released; whether more may wait.
    private func serveSubscriptions() throws(ZMQError) -> Bool {
        var failure: ZMQError?
        let more = subscriptions.serve(back) { event in
            switch event {
            case .kept(let topic): failure = failure ?? upstream(1, topic)
            case .released(let topic): failure = failure ?? upstream(0, topic)
            case .refused: break
            }
        }
        if let failure { throw failure }
        return more
    }

    /// Sends one subscription (`kind` 1) or unsubscription (0) of `topic` upstream; the error, if any.
    /// An `XSUB` never blocks a send (a producer past its queue misses it, as with `zmq_proxy`).
    private func upstream(_ kind: UInt8, _ topic: [UInt8]) -> ZMQError? {
        var message = [kind]
        message.append(contentsOf: topic)
        do {
            try front.send(message, flags: [.dontWait])
        } catch {
            return error
        }
        statistics.frontendMessagesOut += 1
        statistics.frontendBytesOut += UInt64(message.count)
        return nil
    }
}

@available(*, unavailable)
extension ForwardingProxy: Sendable {}
