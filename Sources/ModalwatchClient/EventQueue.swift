import Synchronization

/// The bounded queue between callers and the sender thread: a fixed ring (``EventRing``) under one
/// lock, held only to copy an entry in or out. A caller never waits for room: when the
/// ring is full, the event is dropped and counted.
final class EventQueue: Sendable {
    private struct Ring: ~Copyable {
        var events: EventRing
        var dropped: UInt64 = 0
        var accepted: UInt64 = 0
        var closed = false
    }

    let capacity: Int
    private let ring: Mutex<Ring>
    private let wakeup: WakePipe

    init(capacity: Int, wakeup: WakePipe) {
        self.capacity = max(1, capacity)
        self.wakeup = wakeup
        ring = Mutex(Ring(events: EventRing(capacity: capacity)))
    }

    /// Adds an event; `false` (and counted) when the queue is full.
    func offer(_ event: consuming PendingEvent) -> Bool {
        let wasEmpty: Bool? = ring.withLock { ring in
            guard !ring.events.isFull, !ring.closed else {
                ring.dropped += 1
                return nil
            }
            ring.events.append(event)
            ring.accepted += 1
            return ring.events.count == 1
        }
        guard let wasEmpty else { return false }
        if wasEmpty { wakeup.wake() }
        return true
    }

    /// Moves every queued event, oldest first, to the end of `events`.
    func takeAll(into events: inout [PendingEvent]) {
        ring.withLock { ring in
            while let event = ring.events.removeFirst() { events.append(event) }
        }
    }

    /// Refuses (and counts) every later event.
    func close() {
        ring.withLock { $0.closed = true }
    }

    /// Events waiting now.
    var count: Int { ring.withLock { $0.events.count } }

    /// Events accepted and dropped so far.
    var counts: (accepted: UInt64, dropped: UInt64) { ring.withLock { ($0.accepted, $0.dropped) } }
}
