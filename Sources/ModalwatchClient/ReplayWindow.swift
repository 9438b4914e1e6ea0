/// The events the sender thread handed on last, kept to send again to a daemon that
/// subscribes anew (after a restart, or its first connection): bounded in events and in their
/// encoded bytes. When either bound is reached the oldest events leave, counted. Holds the
/// queue's own `PendingEvent`s: their encoded bytes are shared, never copied. Owned by the
/// sender thread.
struct ReplayWindow {
    private var ring: EventRing
    private let maxBytes: Int
    /// Whether events are kept at all (both bounds above 0).
    let isEnabled: Bool
    /// The encoded bytes of the events held now.
    private(set) var bytes = 0
    /// Events that left the window (oldest first) to make room, or were larger than it.
    private(set) var overflows: UInt64 = 0

    /// A window of at most `events` events and `bytes` encoded bytes; 0 in either keeps nothing.
    init(events: Int, bytes: Int) {
        isEnabled = events > 0 && bytes > 0
        ring = EventRing(capacity: isEnabled ? events : 1)
        maxBytes = bytes
    }

    /// Events held now.
    var count: Int { ring.count }

    /// Keeps `event` as the newest, after the oldest left as needed to stay within both bounds.
    mutating func append(_ event: PendingEvent) {
        guard isEnabled else { return }
        let size = event.bytes.count
        guard size <= maxBytes else {
            overflows += 1
            return
        }
        while ring.isFull || bytes + size > maxBytes, let oldest = ring.removeFirst() {
            bytes -= oldest.bytes.count
            overflows += 1
        }
        ring.append(event)
        bytes += size
    }

    /// The event `offset` places after the oldest (`0..<count`).
    subscript(offset: Int) -> PendingEvent { ring[offset] }
}
