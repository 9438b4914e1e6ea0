/// The live sessions: found by id bytes without building a String, and kept in
/// least-recently-active order so the oldest can be released.
///
/// Open addressing with linear probing. Each probe position holds the session's
/// mixed hash and an unowned reference to it side by side (16 bytes), so a lookup
/// costs one cache line for the probe and one for the session, whose id bytes it
/// compares in place. Sessions are owned by `sessions[slot]`; the LRU order is a
/// doubly linked list over slots. A class: the engine reaches it on every event,
/// and a struct in a class property would be copied (five array references) per call.
final class SessionTable {
    /// One probe position: empty (`session == nil`, `hash == 0`), deleted (`session == nil`,
    /// `hash == 1`), or a live session with its mixed hash.
    private struct Entry {
        var hash: UInt64
        var session: Unmanaged<Session>?

        static var empty: Entry { Entry(hash: 0, session: nil) }
        static var deleted: Entry { Entry(hash: 1, session: nil) }
        var isEmpty: Bool { session == nil && hash == 0 }
    }

    private var entries: [Entry]
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
        entries = [Entry](repeating: .empty, count: 1024)
        mask = 1023
    }

    /// The session with these id bytes.
    func find(_ id: UnsafeRawBufferPointer, hash: UInt64) -> Session? {
        let mixed = Hashing.mix(hash)
        var position = Int(truncatingIfNeeded: mixed) & mask
        return entries.withUnsafeBufferPointer { entries in
            while true {
                let entry = entries[position]
                if let session = entry.session {
                    if entry.hash == mixed {
                        let candidate = session.takeUnretainedValue()
                        if candidate.idEquals(id) { return candidate }
                    }
                } else if entry.hash == 0 {
                    return nil
                }
                position = (position + 1) & mask
            }
        }
    }

    /// Adds a session (its id must not be present) as the most recently active.
    func insert(_ session: Session) {
        if (count + tombstones + 1) * 2 > entries.count { rehash(growing: count * 4 >= entries.count) }
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
        place(session)
        linkAtHead(slot)
        count += 1
    }

    /// Removes a session.
    func remove(_ session: Session) {
        let slot = session.slot
        guard slot >= 0, sessions[Int(slot)] === session else { return }
        var position = Int(truncatingIfNeeded: Hashing.mix(session.idHash)) & mask
        while entries[position].session?.toOpaque() != Unmanaged.passUnretained(session).toOpaque() {
            position = (position + 1) & mask
        }
        entries[position] = .deleted
        tombstones += 1
        unlink(slot)
        sessions[Int(slot)] = nil
        freeSlots.append(slot)
        session.slot = -1
        count -= 1
    }

    /// Marks a session the most recently active.
    func touch(_ session: Session) {
        let slot = session.slot
        guard slot != head else { return }
        unlink(slot)
        linkAtHead(slot)
    }

    /// The least recently active session.
    var leastRecentlyActive: Session? { tail >= 0 ? sessions[Int(tail)] : nil }

    /// Slots, live or free: a scan in slices (`Engine.continueScan`) walks `0..<slotCount`.
    var slotCount: Int { sessions.count }

    /// The session in `slot`, if it holds one.
    func session(inSlot slot: Int) -> Session? { sessions[slot] }

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

    private func place(_ session: Session) {
        let mixed = Hashing.mix(session.idHash)
        var position = Int(truncatingIfNeeded: mixed) & mask
        while entries[position].session != nil { position = (position + 1) & mask }
        if !entries[position].isEmpty { tombstones -= 1 }
        entries[position] = Entry(hash: mixed, session: .passUnretained(session))
    }

    private func rehash(growing: Bool) {
        let size = growing ? entries.count * 2 : entries.count
        entries = [Entry](repeating: .empty, count: size)
        mask = size - 1
        tombstones = 0
        for case let session? in sessions { place(session) }
    }

    private func linkAtHead(_ slot: Int32) {
        previous[Int(slot)] = -1
        next[Int(slot)] = head
        if head >= 0 { previous[Int(head)] = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private func unlink(_ slot: Int32) {
        let p = previous[Int(slot)]
        let n = next[Int(slot)]
        if p >= 0 { next[Int(p)] = n } else { head = n }
        if n >= 0 { previous[Int(n)] = p } else { tail = p }
        previous[Int(slot)] = -1
        next[Int(slot)] = -1
    }
}
