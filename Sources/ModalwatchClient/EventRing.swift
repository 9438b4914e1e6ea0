/// A ring of events with a fixed number of slots, oldest first: the storage of ``EventQueue``
/// and of ``ReplayWindow``. Its slots are allocated once; adding and taking never allocate.
struct EventRing {
    private var slots: [PendingEvent?]
    private var head = 0
    /// Events held now.
    private(set) var count = 0

    /// An empty ring of `capacity` slots (at least one).
    init(capacity: Int) {
        slots = Array(repeating: nil, count: max(1, capacity))
    }

    /// How many events the ring holds at most.
    var capacity: Int { slots.count }

    /// Whether every slot holds an event.
    var isFull: Bool { count == slots.count }

    /// Adds `event` after the newest; the ring must not be full.
    mutating func append(_ event: PendingEvent) {
        precondition(count < slots.count, "append to a full EventRing")
        slots[(head + count) % slots.count] = event
        count += 1
    }

    /// Takes the oldest event out; nil when the ring is empty.
    mutating func removeFirst() -> PendingEvent? {
        guard count > 0 else { return nil }
        let event = slots[head].take()
        head = (head + 1) % slots.count
        count -= 1
        return event
    }

    /// The event `offset` places after the oldest (`0..<count`).
    subscript(offset: Int) -> PendingEvent {
        precondition(offset >= 0 && offset < count, "EventRing offset out of range")
        return slots[(head + offset) % slots.count]!
    }
}
