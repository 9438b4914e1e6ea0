import ShardRouting

/// One message being filled by the sender thread: NDJSON events of one batching key, hence
/// of one bucket, and (when the replay window keeps them) the events themselves.
struct OpenBatch {
    /// The bucket of every event in it.
    let bucket: ShardBucket
    /// The app of its first event (the topic's app part).
    let app: String
    /// The session of its first event (the topic's session part while ``oneSession``).
    let session: String
    /// Whether every event is of ``session``.
    private(set) var oneSession = true
    /// The events' JSON, one a line.
    private(set) var payload: [UInt8] = []
    /// Events in it.
    private(set) var events = 0
    /// The events, oldest first, when the batch keeps them for the replay window; else empty.
    private(set) var members: [PendingEvent] = []
    private let keepsMembers: Bool
    /// When it is due (monotonic ms).
    let dueMs: Int64

    /// A batch of `first`, with room for `maxEvents` events and `maxBytes` bytes.
    init(first: PendingEvent, maxEvents: Int, maxBytes: Int, dueMs: Int64, keepingMembers: Bool) {
        bucket = first.bucket
        app = first.app
        session = first.session
        self.dueMs = dueMs
        keepsMembers = keepingMembers
        payload.reserveCapacity(min(maxBytes, first.bytes.count * maxEvents))
        if keepingMembers { members.reserveCapacity(maxEvents) }
        add(first)
    }

    /// Whether `event` fits in a batch of at most `maxEvents` events and `maxBytes` bytes.
    func hasRoom(for event: PendingEvent, maxEvents: Int, maxBytes: Int) -> Bool {
        events < maxEvents && payload.count + 1 + event.bytes.count <= maxBytes
    }

    /// Appends `event` (of the batch's key) as a new line.
    mutating func add(_ event: PendingEvent) {
        if events > 0 { payload.append(0x0A) }
        payload += event.bytes
        events += 1
        if keepsMembers { members.append(event) }
        if oneSession && session != event.session { oneSession = false }
    }

    /// The message's topic: `ui/<bb>/<app>/<session>`, without the session when it holds several.
    var topic: [UInt8] {
        ShardTopic.topic(bucket: bucket, app: app, session: oneSession ? session : nil)
    }
}
