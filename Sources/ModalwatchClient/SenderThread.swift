import ByteBasics
import Foundation
import Logging
import ShardRouting
import Synchronization
import ZeroMQ

/// The client's one thread that touches ZeroMQ: it makes the context and the `XPUB`
/// socket, connects it, reads the daemons' subscriptions, takes events from the queue,
/// batches them per bucket (by size and by time) and sends them, keeping the last ones in
/// the replay window to send again, oldest first, to a bucket a daemon subscribes to anew.
/// Callers never touch the socket; they reach this thread only through the queue and its
/// wake-up pipe.
final class SenderThread: Sendable {
    private let configuration: ClientConfiguration
    private let queue: EventQueue
    private let wakeup: WakePipe
    private let shared: ClientSharedState
    private let logger: Logger
    private let finished = Mutex<DispatchSemaphore?>(nil)
    private let closing = Atomic<Bool>(false)

    init(
        configuration: ClientConfiguration,
        queue: EventQueue,
        wakeup: WakePipe,
        shared: ClientSharedState,
        logger: Logger
    ) {
        self.configuration = configuration
        self.queue = queue
        self.wakeup = wakeup
        self.shared = shared
        self.logger = logger
    }

    /// Starts the thread; returns once the socket is connected (or throws why it is not).
    func start() throws(ClientError) {
        let (_, finished) = try SocketThread.start(
            name: "modalwatch-client",
            open: { [self] () throws(ClientError) in try open() },
            report: { _ in () },
            run: { [self] in run($0) }
        )
        self.finished.withLock { $0 = finished }
    }

    /// Sends what is queued, closes the socket (lingering up to the configured time) and ends the thread.
    func stop() {
        closing.store(true, ordering: .sequentiallyConsistent)
        wakeup.wake()
        finished.withLock { $0 }?.wait()
    }

    /// The thread's context and its one socket.
    private struct Connection {
        let context: ZMQContext
        let socket: ZMQSocket
    }

    /// What the sender thread keeps from one send to the next.
    private struct SendState {
        /// The daemons' subscriptions, as the socket reported them.
        var table = SubscriptionTable()
        /// The events handed on last, for a daemon that subscribes anew.
        var window: ReplayWindow
    }

    /// How handing one message to ZeroMQ ended.
    private enum Delivery {
        case sent
        /// No daemon subscribes to the message's topic.
        case noSubscriber
        /// The daemon's queue stayed full past the stall timeout, or the send failed.
        case stalled
    }

    /// Makes the context and the socket and connects it; ends what it made when it throws.
    private func open() throws(ClientError) -> Connection {
        let context: ZMQContext
        var made: ZMQSocket?
        do {
            context = try ZMQContext(ioThreads: 1)
        } catch {
            throw ClientError("cannot create a ZeroMQ context: \(error)")
        }
        do {
            let socket = try ZMQSocket(context, type: .xpub, linger: configuration.lingerMs)
            made = socket
            try socket.set(.sendHighWaterMark, configuration.sendHighWaterMark)
            // A full daemon queue shows as EAGAIN, so the client can wait, then count a drop.
            try socket.set(.xpubNoDrop, true)
            // A connection's queue lives only while it is connected: a daemon that goes away takes
            // its subscriptions with it (reported as unsubscriptions), and one that comes back
            // subscribes anew, which is what starts a replay. Without it, libzmq keeps a connecting
            // socket's queue and subscriptions across reconnects and reports neither.
            try socket.set(.immediate, true)
            if let curve = configuration.curve {
                try socket.set(.curveServerKey, curve.serverKey)
                try socket.set(.curvePublicKey, curve.publicKey)
                try socket.set(.curveSecretKey, curve.secretKey)
            }
        } catch {
            made?.close()
            context.terminate()
            throw ClientError("cannot set up the client's socket: \(error)")
        }
        let socket = made!
        for endpoint in configuration.endpoints {
            do { try socket.connect(endpoint) } catch {
                socket.close()
                context.terminate()
                throw ClientError("cannot connect to \(endpoint): \(error); check the endpoint (e.g. tcp://host:7450)")
            }
        }
        return Connection(context: context, socket: socket)
    }

    /// Sends until `stop()`; closes the socket and ends the context.
    private func run(_ connection: Connection) {
        let context = connection.context
        let socket = connection.socket
        defer { context.terminate() }
        defer { socket.close() }

        let poller = ZMQPoller()
        do { _ = try poller.add(socket) } catch {
            logger.error("cannot poll the client's socket; nothing will be sent", metadata: ["error": "\(error)"])
            return
        }
        let wakeIndex = poller.add(fileDescriptor: wakeup.readDescriptor)
        var state = SendState(
            window: ReplayWindow(events: configuration.replayWindowEvents, bytes: configuration.replayWindowBytes)
        )
        var incoming: [PendingEvent] = []
        // Open batches in the order they were opened, and where each batching key's is.
        var open: [OpenBatch] = []
        var indexOf: [String: Int] = [:]
        while true {
            let stopping = closing.load(ordering: .sequentiallyConsistent)
            if !stopping {
                let now = PosixClock.monotonic.milliseconds()
                let due = open.lazy.map(\.dueMs).min()
                let timeout = due.map { Int(max(0, min(200, $0 - now))) } ?? 200
                do { _ = try poller.poll(timeout: timeout) } catch {
                    if error.isTerminated { return }
                }
                if poller.isReadable(wakeIndex) { wakeup.drain() }
            }
            readSubscriptions(socket, &state.table)
            replayIfResubscribed(socket, &state)
            queue.takeAll(into: &incoming)
            for event in incoming {
                let key = batchKey(of: event)
                guard let index = indexOf[key] else {
                    indexOf[key] = open.count
                    open.append(newBatch(for: event, keepingEvents: state.window.isEnabled))
                    continue
                }
                if open[index].hasRoom(
                    for: event,
                    maxEvents: configuration.maxBatchEvents,
                    maxBytes: configuration.maxBatchBytes
                ) {
                    open[index].add(event)
                } else {
                    send(open[index], socket, &state)
                    open[index] = newBatch(for: event, keepingEvents: state.window.isEnabled)
                }
            }
            incoming.removeAll(keepingCapacity: true)
            // Full batches and batches past their delay go now; on stop, all of them.
            let now = PosixClock.monotonic.milliseconds()
            if stopping || open.contains(where: { $0.events >= configuration.maxBatchEvents || $0.dueMs <= now }) {
                var kept: [OpenBatch] = []
                indexOf.removeAll(keepingCapacity: true)
                for batch in open {
                    if stopping || batch.events >= configuration.maxBatchEvents || batch.dueMs <= now {
                        send(batch, socket, &state)
                    } else {
                        indexOf[batchKey(of: batch)] = kept.count
                        kept.append(batch)
                    }
                }
                open = kept
            }
            if stopping && queue.count == 0 && open.isEmpty { return }
        }
    }

    /// What events are batched by: the app with key `app`, the session with key `session`.
    private func batchKey(of event: PendingEvent) -> String {
        configuration.shardKey == .app ? event.app : event.session
    }

    private func batchKey(of batch: OpenBatch) -> String {
        configuration.shardKey == .app ? batch.app : batch.session
    }

    private func newBatch(for event: PendingEvent, keepingEvents: Bool) -> OpenBatch {
        OpenBatch(
            first: event,
            maxEvents: configuration.maxBatchEvents,
            maxBytes: configuration.maxBatchBytes,
            dueMs: PosixClock.monotonic.milliseconds() + Int64(configuration.maxBatchDelayMs),
            keepingMembers: keepingEvents
        )
    }

    /// Takes every subscription message waiting on the socket.
    private func readSubscriptions(_ socket: ZMQSocket, _ table: inout SubscriptionTable) {
        var changed = false
        while true {
            let frame: [UInt8]?
            do { frame = try socket.receiveFrame(dontWait: true) } catch { break }
            guard let frame else { break }
            if table.apply(frame) { changed = true }
        }
        if changed { shared.setSubscriptions(table) }
    }

    /// Sends one batch (after the replay of any bucket subscribed anew), or counts why it was
    /// not sent; then keeps its events in the replay window, sent or not.
    private func send(_ batch: OpenBatch, _ socket: ZMQSocket, _ state: inout SendState) {
        readSubscriptions(socket, &state.table)
        replayIfResubscribed(socket, &state)
        let delivery = deliver(batch, socket, &state, replaying: false)
        for event in batch.members { state.window.append(event) }
        let held = state.window.count
        let heldBytes = state.window.bytes
        let overflows = state.window.overflows
        shared.update {
            switch delivery {
            case .sent:
                $0.eventsSent += UInt64(batch.events)
                $0.messagesSent += 1
                $0.bytesSent += UInt64(batch.payload.count)
            case .noSubscriber:
                $0.eventsDroppedNoSubscriber += UInt64(batch.events)
                $0.messagesDroppedNoSubscriber += 1
            case .stalled:
                $0.eventsDroppedStalled += UInt64(batch.events)
            }
            $0.replayWindowEvents = held
            $0.replayWindowBytes = heldBytes
            $0.replayWindowOverflows = overflows
        }
    }

    /// Hands one message to ZeroMQ, retrying while a daemon's queue is full, up to the stall
    /// timeout. Unless `replaying`, a bucket subscribed anew meanwhile gets its replay first.
    private func deliver(_ batch: OpenBatch, _ socket: ZMQSocket, _ state: inout SendState, replaying: Bool) -> Delivery
    {
        let topic = batch.topic
        let what = replaying ? "the replayed batch" : "the batch"
        let deadline = PosixClock.monotonic.milliseconds() + Int64(configuration.stallTimeoutMs)
        while true {
            guard state.table.matches(topic: topic, bucket: batch.bucket) else { return .noSubscriber }
            let sent: Bool
            do {
                sent = try socket.sendMultipart([topic, batch.payload], dontWait: true)
            } catch {
                logger.error(
                    "send failed; \(what) is dropped",
                    metadata: ["error": "\(error)", "events": "\(batch.events)"]
                )
                return .stalled
            }
            if sent { return .sent }
            if PosixClock.monotonic.milliseconds() >= deadline {
                logger.warning(
                    "a daemon's queue stayed full; \(what) is dropped",
                    metadata: [
                        "bucket": "\(batch.bucket)", "events": "\(batch.events)",
                        "stall_timeout_ms": "\(configuration.stallTimeoutMs)",
                    ]
                )
                return .stalled
            }
            usleep(500)
            readSubscriptions(socket, &state.table)
            if !replaying { replayIfResubscribed(socket, &state) }
        }
    }

    /// Sends the window's events again for every bucket a daemon subscribed to anew, before
    /// any newer event of those buckets goes out. A daemon drops what it already has by `seq`.
    private func replayIfResubscribed(_ socket: ZMQSocket, _ state: inout SendState) {
        while true {
            let buckets = state.table.takeNewlyCovered()
            guard !buckets.isEmpty, state.window.count > 0 else { return }
            replay(buckets, socket, &state)
        }
    }

    /// Sends the window's events of `buckets`, oldest first, batched as the main loop batches.
    private func replay(_ buckets: [ShardBucket], _ socket: ZMQSocket, _ state: inout SendState) {
        var wanted = [Bool](repeating: false, count: 256)
        for bucket in buckets { wanted[Int(bucket.value)] = true }
        var batches: [OpenBatch] = []
        var indexOf: [String: Int] = [:]
        var replayed: (events: UInt64, messages: UInt64, bytes: UInt64) = (0, 0, 0)
        var undelivered = 0
        func count(_ batch: OpenBatch, _ delivery: Delivery) {
            guard case .sent = delivery else {
                undelivered += batch.events
                return
            }
            replayed.events += UInt64(batch.events)
            replayed.messages += 1
            replayed.bytes += UInt64(batch.payload.count)
        }
        for offset in 0..<state.window.count {
            let event = state.window[offset]
            guard wanted[Int(event.bucket.value)] else { continue }
            let key = batchKey(of: event)
            guard let index = indexOf[key] else {
                indexOf[key] = batches.count
                batches.append(
                    OpenBatch(
                        first: event,
                        maxEvents: configuration.maxBatchEvents,
                        maxBytes: configuration.maxBatchBytes,
                        dueMs: 0,
                        keepingMembers: false
                    )
                )
                continue
            }
            if batches[index].hasRoom(
                for: event,
                maxEvents: configuration.maxBatchEvents,
                maxBytes: configuration.maxBatchBytes
            ) {
                batches[index].add(event)
            } else {
                count(batches[index], deliver(batches[index], socket, &state, replaying: true))
                batches[index] = OpenBatch(
                    first: event,
                    maxEvents: configuration.maxBatchEvents,
                    maxBytes: configuration.maxBatchBytes,
                    dueMs: 0,
                    keepingMembers: false
                )
            }
        }
        for batch in batches { count(batch, deliver(batch, socket, &state, replaying: true)) }
        let done = replayed
        shared.update {
            $0.eventsReplayed += done.events
            $0.messagesReplayed += done.messages
            $0.bytesReplayed += done.bytes
        }
        logger.info(
            "replayed the window's events to buckets subscribed anew",
            metadata: [
                "buckets": "\(buckets.count)", "events": "\(done.events)", "messages": "\(done.messages)",
                "undelivered": "\(undelivered)",
            ]
        )
    }
}
