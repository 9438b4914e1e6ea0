import ByteBasics
public import Logging
public import ShardRouting
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Publishes UI events to modalwatch daemons (events.md, scale.md) without blocking the app.
///
/// Callers (any thread) encode an event and put it in a bounded queue; one sender thread,
/// the only one that touches ZeroMQ, batches the queue per bucket and sends each batch
/// with its shard topic `ui/<bb>/<app>/<session>` on an `XPUB` socket connected to every
/// daemon (or to a forwarder). Through `XPUB` the client sees which buckets have a daemon
/// subscribed, so what ZeroMQ would drop silently (a daemon down) is counted instead; and
/// when a daemon subscribes anew (it restarted), the client sends it the events of its buckets
/// kept in the replay window (``ClientConfiguration/replayWindowEvents``) before newer ones.
///
/// ```swift
/// let client = try ModalwatchClient(configuration: .init(endpoints: ["tcp://127.0.0.1:7450"]), logger: logger)
/// let session = client.startSession(app: "com.example.mail")
/// session.send(.alertPresented(id: "a1", title: "Delete?", message: nil, buttons: [AlertButton("Delete", style: .destructive), AlertButton("Cancel", style: .cancel)]))
/// session.end()
/// client.close()
/// ```
public final class ModalwatchClient: Sendable {
    /// The configuration in force.
    public let configuration: ClientConfiguration
    private let queue: EventQueue
    private let shared: ClientSharedState
    private let sender: SenderThread
    private let closed = Atomic<Bool>(false)

    /// Starts the sender thread and connects to `configuration.endpoints`.
    /// - Throws: ``ClientError`` when the socket cannot be made or an endpoint is malformed.
    public init(configuration: ClientConfiguration, logger: Logger) throws(ClientError) {
        guard !configuration.endpoints.isEmpty else {
            throw ClientError("no endpoint to connect to; name a daemon's ingest endpoint or a forwarder")
        }
        guard (1...1024).contains(configuration.maxBatchEvents) else {
            throw ClientError("maxBatchEvents must be 1 to 1024")
        }
        guard (1...(256 * 1024)).contains(configuration.maxBatchBytes) else {
            throw ClientError("maxBatchBytes must be 1 to 262144")
        }
        guard (0...1_000_000).contains(configuration.replayWindowEvents) else {
            throw ClientError("replayWindowEvents must be 0 (no replay) to 1000000")
        }
        guard (0...(1 << 30)).contains(configuration.replayWindowBytes) else {
            throw ClientError("replayWindowBytes must be 0 (no replay) to 1073741824")
        }
        self.configuration = configuration
        let wakeup = try WakePipe()
        queue = EventQueue(capacity: configuration.queueCapacity, wakeup: wakeup)
        shared = ClientSharedState()
        sender = SenderThread(
            configuration: configuration,
            queue: queue,
            wakeup: wakeup,
            shared: shared,
            logger: logger
        )
        try sender.start()
    }

    deinit {
        close()
    }

    /// Begins a session: sends `session.start` and returns the handle that sends the rest.
    /// - Parameters:
    ///   - id: the session id (1–128 bytes); nil makes a random one.
    ///   - locale: the app's interface language, a BCP 47 tag (`de-DE`, or Apple's `de_DE`:
    ///     `Locale.current.identifier`); by default this process's (`ProcessLanguage.current`:
    ///     `LC_ALL`, `LC_MESSAGES`, `LANG`); nil sends none (events.md, "Languages").
    ///   - ts: the start's event time (ms since the epoch); nil reads the clock.
    public func startSession(
        app: String,
        id: String? = nil,
        appVersion: String? = nil,
        os: String? = nil,
        device: Device? = nil,
        sizeClass: SizeClass? = nil,
        locale: String? = ProcessLanguage.current,
        at ts: Int64? = nil
    ) -> ClientSession {
        let session = ClientSession(client: self, app: app, id: id ?? ClientSession.randomID())
        session.start(appVersion: appVersion, os: os, device: device, sizeClass: sizeClass, locale: locale, at: ts)
        return session
    }

    /// Queues one already-encoded event (one JSON object of wire format v1, no newline) of
    /// `app`'s `session`: for replaying recorded streams. Returns false when the queue was
    /// full (the event is dropped and counted). With the replay window on, every event needs a
    /// `seq` that increases within its session: by it alone a daemon tells a replayed event it
    /// already has from a new one.
    @discardableResult
    public func publish(encoded bytes: [UInt8], app: String, session: String) -> Bool {
        let bucket = ShardTopic.bucket(app: app, session: session, key: configuration.shardKey)
        return queue.offer(PendingEvent(bucket: bucket, app: app, session: session, bytes: bytes))
    }

    /// The counters so far.
    public var statistics: ClientStatistics {
        var statistics = shared.statistics
        let counts = queue.counts
        statistics.eventsQueued = counts.accepted
        statistics.eventsDroppedQueueFull = counts.dropped
        return statistics
    }

    /// Events waiting in the queue now.
    public var queuedCount: Int { queue.count }

    /// Whether some daemon subscribes to every message of `bucket` now.
    public func hasSubscriber(for bucket: ShardBucket) -> Bool { shared.covers(bucket) }

    /// Waits (sleeping, on the caller's thread) until some daemon subscribes to `bucket`, at
    /// most `timeoutMs`; for tools and tests. An app need not wait: what it sends before is counted.
    public func waitUntilSubscribed(_ bucket: ShardBucket, timeoutMs: Int) -> Bool {
        let deadline = PosixClock.monotonic.milliseconds() + Int64(timeoutMs)
        while !shared.covers(bucket) {
            if PosixClock.monotonic.milliseconds() >= deadline { return false }
            usleep(1000)
        }
        return true
    }

    /// The bucket an event of `app`'s `session` goes to.
    public func bucket(app: String, session: String) -> ShardBucket {
        ShardTopic.bucket(app: app, session: session, key: configuration.shardKey)
    }

    /// Sends what is queued, closes the socket (giving ZeroMQ up to `lingerMs` to deliver)
    /// and stops the sender thread. Later events are dropped and counted. Idempotent.
    public func close() {
        guard !closed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        queue.close()
        sender.stop()
    }

    func enqueue(_ event: consuming PendingEvent) -> Bool {
        queue.offer(event)
    }
}
