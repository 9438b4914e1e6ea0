import ByteBasics
import Foundation
import Logging
import ShardRouting
import Synchronization
import ZeroMQ

/// The client's one thread that touches ZeroMQ: it makes the context and the `XPUB`
/// socket, connects it, reads the daemons' subscriptions, takes events from the queue,
/// batches them per bucket (by size and by time) and sends them. Callers never touch
/// the socket; they reach this thread only through the queue and its wake-up pipe.
final class SenderThread: Sendable {
    private let configuration: ClientConfiguration
    private let queue: EventQueue
    private let wakeup: WakePipe
    private let shared: ClientSharedState
    private let logger: Logger
    private let finished = Mutex<DispatchSemaphore?>(nil)
    private let closing = Atomic<Bool>(false)

    init(configuration: ClientConfiguration, queue: EventQueue, wakeup: WakePipe, shared: ClientSharedState, logger: Logger) {
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
            report: { _ in () }, run: { [self] in run($0) })
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

    /// One message being filled: events of one batching key, hence of one bucket.
    private struct OpenBatch {
        var bucket: ShardBucket
        var app: String
        var session: String
        var oneSession = true
        var payload: [UInt8] = []
        var events = 0
        var dueMs: Int64
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
        let context = connection.context, socket = connection.socket
        defer { context.terminate() }
        defer { socket.close() }

        let poller = ZMQPoller()
        do { _ = try poller.add(socket) } catch {
            logger.error("cannot poll the client's socket; nothing will be sent", metadata: ["error": "\(error)"])
            return
        }
        let wakeIndex = poller.add(fileDescriptor: wakeup.readDescriptor)
        var subscriptions = SubscriptionTable()
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
            readSubscriptions(socket, &subscriptions)
            queue.takeAll(into: &incoming)
            for event in incoming {
                let key = configuration.shardKey == .app ? event.app : event.session
                guard let index = indexOf[key] else {
                    indexOf[key] = open.count
                    open.append(newBatch(for: event))
                    continue
                }
                if open[index].events >= configuration.maxBatchEvents
                    || open[index].payload.count + 1 + event.bytes.count > configuration.maxBatchBytes {
                    send(open[index], socket, &subscriptions)
                    open[index] = newBatch(for: event)
                } else {
                    open[index].payload.append(0x0A)
                    open[index].payload += event.bytes
                    open[index].events += 1
                    if open[index].oneSession && open[index].session != event.session { open[index].oneSession = false }
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
                        send(batch, socket, &subscriptions)
                    } else {
                        indexOf[configuration.shardKey == .app ? batch.app : batch.session] = kept.count
                        kept.append(batch)
                    }
                }
                open = kept
            }
            if stopping && queue.count == 0 && open.isEmpty { return }
        }
    }

    private func newBatch(for event: PendingEvent) -> OpenBatch {
        var batch = OpenBatch(
            bucket: event.bucket, app: event.app, session: event.session,
            dueMs: PosixClock.monotonic.milliseconds() + Int64(configuration.maxBatchDelayMs))
        batch.payload.reserveCapacity(min(configuration.maxBatchBytes, event.bytes.count * configuration.maxBatchEvents))
        batch.payload += event.bytes
        batch.events = 1
        return batch
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

    /// Sends one batch, or counts why it was not sent.
    private func send(_ batch: OpenBatch, _ socket: ZMQSocket, _ table: inout SubscriptionTable) {
        readSubscriptions(socket, &table)
        let topic = ShardTopic.topic(bucket: batch.bucket, app: batch.app, session: batch.oneSession ? batch.session : nil)
        let deadline = PosixClock.monotonic.milliseconds() + Int64(configuration.stallTimeoutMs)
        while true {
            guard table.matches(topic: topic, bucket: batch.bucket) else {
                shared.update {
                    $0.eventsDroppedNoSubscriber += UInt64(batch.events)
                    $0.messagesDroppedNoSubscriber += 1
                }
                return
            }
            let sent: Bool
            do {
                sent = try socket.sendMultipart([topic, batch.payload], dontWait: true)
            } catch {
                logger.error("send failed; the batch is dropped", metadata: ["error": "\(error)", "events": "\(batch.events)"])
                shared.update { $0.eventsDroppedStalled += UInt64(batch.events) }
                return
            }
            if sent {
                shared.update {
                    $0.eventsSent += UInt64(batch.events)
                    $0.messagesSent += 1
                    $0.bytesSent += UInt64(batch.payload.count)
                }
                return
            }
            if PosixClock.monotonic.milliseconds() >= deadline {
                logger.warning("a daemon's queue stayed full; the batch is dropped", metadata: [
                    "bucket": "\(batch.bucket)", "events": "\(batch.events)", "stall_timeout_ms": "\(configuration.stallTimeoutMs)",
                ])
                shared.update { $0.eventsDroppedStalled += UInt64(batch.events) }
                return
            }
            usleep(500)
            readSubscriptions(socket, &table)
        }
    }
}
