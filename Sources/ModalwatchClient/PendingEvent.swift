public import ShardRouting

/// One encoded event waiting in the queue, with what routes and batches it.
public struct PendingEvent: Sendable {
    /// The event's bucket.
    public var bucket: ShardBucket
    /// The app (the topic's app part; with key `app`, the batch's key too).
    public var app: String
    /// The session (the topic's session part; with key `session`, the batch's key).
    public var session: String
    /// One event's JSON, without a newline.
    public var bytes: [UInt8]

    /// An event of `app`'s `session`, routed to `bucket`.
    public init(bucket: ShardBucket, app: String, session: String, bytes: [UInt8]) {
        self.bucket = bucket
        self.app = app
        self.session = session
        self.bytes = bytes
    }
}
