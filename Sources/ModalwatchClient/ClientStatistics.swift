/// What a ``ModalwatchClient`` has done so far. Every event handed to it ends up in exactly
/// one of `eventsSent`, `eventsDroppedQueueFull`, `eventsDroppedNoSubscriber`,
/// `eventsDroppedStalled`, or is still queued; a replay (`eventsReplayed`) sends some of them
/// again, and is counted apart.
public struct ClientStatistics: Sendable, Equatable {
    /// Events accepted into the queue.
    public var eventsQueued: UInt64 = 0
    /// Events refused because the queue was full (the caller is never blocked).
    public var eventsDroppedQueueFull: UInt64 = 0
    /// Events handed to ZeroMQ for a subscribed daemon.
    public var eventsSent: UInt64 = 0
    /// Messages (batches) handed to ZeroMQ.
    public var messagesSent: UInt64 = 0
    /// Payload bytes handed to ZeroMQ.
    public var bytesSent: UInt64 = 0
    /// Events of buckets no daemon subscribed to when their batch was due: a daemon down,
    /// or not yet connected. ZeroMQ would have dropped them silently; the client counts them.
    public var eventsDroppedNoSubscriber: UInt64 = 0
    /// Messages dropped for want of a subscriber.
    public var messagesDroppedNoSubscriber: UInt64 = 0
    /// Events dropped because a daemon's queue stayed full past the stall timeout.
    public var eventsDroppedStalled: UInt64 = 0
    /// Buckets (of 256) with at least one subscribed daemon now.
    public var bucketsSubscribed = 0
    /// Events sent again from the replay window to daemons that subscribed anew (after a
    /// restart, or at their first connection), whether they had been sent or dropped before.
    /// A daemon drops those it already has as duplicates, by their `seq`.
    public var eventsReplayed: UInt64 = 0
    /// Messages of replayed events handed to ZeroMQ.
    public var messagesReplayed: UInt64 = 0
    /// Payload bytes of replayed events handed to ZeroMQ.
    public var bytesReplayed: UInt64 = 0
    /// Events that left the replay window, oldest first, to keep it within its bounds (or
    /// were larger than its byte bound): a daemon that subscribes anew after that misses them.
    public var replayWindowOverflows: UInt64 = 0
    /// Events in the replay window now.
    public var replayWindowEvents = 0
    /// Encoded bytes of the events in the replay window now.
    public var replayWindowBytes = 0

    /// Events lost on this side, for whatever reason.
    public var eventsDropped: UInt64 { eventsDroppedQueueFull + eventsDroppedNoSubscriber + eventsDroppedStalled }

    /// Empty statistics.
    public init() {}
}
