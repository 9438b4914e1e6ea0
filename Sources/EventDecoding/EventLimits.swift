/// The limits the decoder enforces (events.md, "Limits and bad input").
///
/// Lengths are UTF-8 bytes after unescaping. The defaults are the ones events.md gives; a daemon may
/// lower them, and tests use small ones.
public struct EventLimits: Sendable, Equatable {
    /// Largest event object, from its `{` to its `}` (too_large above).
    public var maxEventBytes: Int
    /// Largest string of any field the decoder reads (too_large above).
    public var maxStringBytes: Int
    /// Most items of a `buttons` array (alert, sheet or modal; too_large above).
    public var maxButtons: Int
    /// Most items of a `text_fields` array (too_large above).
    public var maxTextFields: Int
    /// Most events of one NDJSON batch; each further event is rejected too_large.
    public var maxBatchEvents: Int
    /// Longest `session` (too_large above).
    public var maxSessionBytes: Int
    /// Longest `app` (too_large above).
    public var maxAppBytes: Int
    /// Longest presentation `id` (too_large above).
    public var maxIdBytes: Int
    /// Longest `task` id (too_large above).
    public var maxTaskBytes: Int
    /// Longest sheet `background` name (too_large above).
    public var maxBackgroundBytes: Int
    /// Largest payload (one ZeroMQ message); a larger one is one too_large rejection.
    public var maxPayloadBytes: Int
    /// Deepest nesting of arrays and objects, the event object itself being depth 1 (malformed_json above).
    public var maxDepth: Int
    /// Largest topic frame of a two-frame message (events.md: 1 KiB); a larger one is one too_large rejection.
    public static let maxTopicBytes = 1024
    /// Most bytes one ZeroMQ message to a socket that receives events (the daemon's ingest socket,
    /// the forwarder's frontend) may have before the socket itself refuses it (`ZMQ_MAXMSGSIZE`) and
    /// drops the sender's connection. Messages up to this size but over `maxPayloadBytes` are
    /// rejected `too_large` and counted, without losing the connection.
    public static let maxSocketMessageBytes: Int64 = 1 << 20
    /// Most bytes of a subscription message (one byte, then the topic prefix) a publishing socket
    /// takes from a subscriber (`ZMQ_MAXMSGSIZE` on the daemon's `PUB` and the forwarder's `XPUB`):
    /// every topic either publishes is at most `maxTopicBytes`, so a longer prefix matches nothing.
    public static let maxSubscriptionMessageBytes: Int64 = Int64(maxTopicBytes) + 1

    /// Limits with the defaults of events.md; every value must be at least 1 (`maxDepth` at most 128).
    public init(
        maxEventBytes: Int = 65536,
        maxStringBytes: Int = 4096,
        maxButtons: Int = 64,
        maxTextFields: Int = 64,
        maxBatchEvents: Int = 1024,
        maxSessionBytes: Int = 128,
        maxAppBytes: Int = 256,
        maxIdBytes: Int = 128,
        maxTaskBytes: Int = 128,
        maxBackgroundBytes: Int = 128,
        maxPayloadBytes: Int = 262144,
        maxDepth: Int = 128
    ) {
        precondition(
            [
                maxEventBytes, maxStringBytes, maxButtons, maxTextFields, maxBatchEvents, maxSessionBytes,
                maxAppBytes, maxIdBytes, maxTaskBytes, maxBackgroundBytes, maxPayloadBytes, maxDepth,
            ].allSatisfy { $0 >= 1 },
            "every event limit must be at least 1"
        )
        precondition(maxPayloadBytes <= Int(Int32.max), "maxPayloadBytes must be under 2 GiB (offsets are 32 bits)")
        precondition(maxDepth <= JSONScanner.depthCapacity, "maxDepth must be at most \(JSONScanner.depthCapacity)")
        self.maxEventBytes = maxEventBytes
        self.maxStringBytes = maxStringBytes
        self.maxButtons = maxButtons
        self.maxTextFields = maxTextFields
        self.maxBatchEvents = maxBatchEvents
        self.maxSessionBytes = maxSessionBytes
        self.maxAppBytes = maxAppBytes
        self.maxIdBytes = maxIdBytes
        self.maxTaskBytes = maxTaskBytes
        self.maxBackgroundBytes = maxBackgroundBytes
        self.maxPayloadBytes = maxPayloadBytes
        self.maxDepth = maxDepth
    }
}
