/// The live sessions: found by id bytes without building a String, and kept in
/// least-recently-active order so the oldest can be released.
///
/// Open addressing with linear probing over slot indices; sessions live in
/// `sessions[slot]`; the LRU order is a doubly linked list over slots.
struct SessionTable {
    private static let empty: Int32 = -1
    private static let deleted: Int32 = -2

    /// Slot of each position (or empty / deleted), and beside it the session's mixed hash,
    /// so a probe compares hashes without touching the session.
    private var index: [Int32]
    private var hashes: [UInt64]
    private var mask: Int
    private var sessions: [Session?] = []
    private var freeSlots: [Int32] = []
    private var previous: [Int32] = []
    private var next: [Int32] = []
    private var head: Int32 = -1
    private var tail: Int32 = -1
    private var tombstones = 0
    /// Live sessions.
    private(set) var count = 0

    init() {
        index = [Int32](repeating: Self.empty, count: 1024)
        hashes = [UInt64](repeating: 0, count: 1024)
        mask = 1023
    }

    /// The session with these id bytes.
    func find(_ id: UnsafeRawBufferPointer, hash: UInt64) -> Session? {
        let mixed = Hashing.mix(hash)
        var position = Int(truncatingIfNeeded: mixed) & mask
        while true {
            let slot = index[position]
            if slot == Self.empty { return nil }
            if slot >= 0, hashes[position] == mixed, let session = sessions[Int(slot)], session.id.equals(id) {
                return session
            }
            position = (position + 1) & mask
        }
    }

    /// Adds a session (its id must not be present) as the most recently active.
    mutating func insert(_ session: Session) {
        if (count + tombstones + 1) * 2 > index.count { rehash(growing: count * 4 >= index.count) }
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            sessions[Int(slot)] = session
        } else {
            slot = Int32(sessions.count)
            sessions.append(session)
            previous.append(-1)
            next.append(-1)
        }
        session.slot = slot
        place(slot, hash: session.idHash)
        linkAtHead(slot)
        count += 1
    }

    /// Removes a session.
    mutating func remove(_ session: Session) {
        let slot = session.slot
        guard slot >= 0, sessions[Int(slot)] === session else { return }
        var position = Int(truncatingIfNeeded: Hashing.mix(session.idHash)) & mask
        while index[position] != slot { position = (position + 1) & mask }
        index[position] = Self.deleted
        tombstones += 1
        unlink(slot)
        sessions[Int(slot)] = nil
        freeSlots.append(slot)
        session.slot = -1
        count -= 1
    }

    /// Marks a session the most recently active.
    mutating func touch(_ session: Session) {
        let slot = session.slot
        guard slot != head else { return }
        unlink(slot)
        linkAtHead(slot)
    }

    /// The least recently active session.
    var leastRecentlyActive: Session? { tail >= 0 ? sessions[Int(tail)] : nil }

    /// Every live session, most recently active first.
    func allSessions() -> [Session] {
        var result: [Session] = []
        result.reserveCapacity(count)
        var slot = head
        while slot >= 0 {
            if let session = sessions[Int(slot)] { result.append(session) }
            slot = next[Int(slot)]
        }
        return result
    }

    private mutating func place(_ slot: Int32, hash: UInt64) {
        let mixed = Hashing.mix(hash)
        var position = Int(truncatingIfNeeded: mixed) & mask
        while index[position] >= 0 { position = (position + 1) & mask }
        if index[position] == Self.deleted { tombstones -= 1 }
        index[position] = slot
        hashes[position] = mixed
    }

    private mutating func rehash(growing: Bool) {
        let size = growing ? index.count * 2 : index.count
        index = [Int32](repeating: Self.empty, count: size)
        hashes = [UInt64](repeating: 0, count: size)
        mask = size - 1
        tombstones = 0
        for (slot, session) in sessions.enumerated() {
            if let session { place(Int32(slot), hash: session.idHash) }
        }
    }

    private mutating func linkAtHead(_ slot: Int32) {
        previous[Int(slot)] = -1
        next[Int(slot)] = head
        if head >= 0 { previous[Int(head)] = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private mutating func unlink(_ slot: Int32) {
        let p = previous[Int(slot)]
        let n = next[Int(slot)]
        if p >= 0 { next[Int(p)] = n } else { head = n }
        if n >= 0 { previous[Int(n)] = p } else { tail = p }
        previous[Int(slot)] = -1
        next[Int(slot)] = -1
    }
}
