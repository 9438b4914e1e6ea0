public import ShardRouting

/// How a ``ModalwatchClient`` connects, batches and queues.
public struct ClientConfiguration: Sendable {
    /// The endpoints the client's socket connects to: every daemon's ingest endpoint, or
    /// one forwarder's frontend (`modalwatch forward`). At least one.
    public var endpoints: [String]
    /// What buckets are computed from; the daemons must use the same key.
    public var shardKey: ShardKey = .app
    /// Most events in one message (the wire format allows 1,024).
    public var maxBatchEvents = 64
    /// Most payload bytes in one message (the wire format allows 256 KiB).
    public var maxBatchBytes = 64 * 1024
    /// Longest an event waits for its batch to fill, in milliseconds.
    public var maxBatchDelayMs = 10
    /// Events the queue holds before new ones are dropped (and counted).
    public var queueCapacity = 65_536
    /// Messages queued per connected daemon before the client holds back (`ZMQ_SNDHWM`).
    public var sendHighWaterMark: Int32 = 10_000
    /// How long a message held back by a full daemon queue is retried before it is dropped (and counted).
    public var stallTimeoutMs = 5_000
    /// How long closing the client keeps trying to deliver what is still queued, in milliseconds.
    public var lingerMs: Int32 = 5_000
    /// Most events kept after they were handed on (sent or dropped), to send again, oldest
    /// first, to a daemon that subscribes anew after a restart (docs/client.md, "Replay").
    /// 0 turns the replay off; 0 to 1,000,000 (each kept event takes a slot of about 50 bytes,
    /// allocated at start, besides its encoded bytes).
    public var replayWindowEvents = 10_000
    /// Most encoded bytes the replay window keeps; 0 turns the replay off; 0 to 1 GiB.
    public var replayWindowBytes = 8 * 1024 * 1024
    /// CURVE keys, when the daemons (or the forwarder) encrypt ingest.
    public var curve: ClientCurveKeys?

    /// A configuration for `endpoints`, with the defaults above.
    public init(endpoints: [String]) {
        self.endpoints = endpoints
    }
}
