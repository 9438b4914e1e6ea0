/// The live sessions: found by id bytes without building a String, and kept in
/// least-recently-active order so the oldest can be released.
///
/// Open addressing with linear probing over 32-byte probe entries, two to a cache line
/// (the table is 64-byte aligned). Each holds an unowned reference to its session, the
/// top 16 bits of the session's mixed hash, the id's length and its first 20 bytes: a
/// lookup compares in the entry itself, so it costs one cache line for the probe and
/// then only the session it finds (ids longer than 20 bytes compare their rest there).
/// Sessions are owned by `sessions[slot]`; the LRU order is a doubly linked list over
/// slots. A class: the engine reaches it on every event, and a struct in a class
/// property would be copied (five array references) per call.
final class SessionTable {
    /// One probe position: empty (`session == nil`, `meta == 0`), deleted (`session == nil`,
    /// `meta == 1`), or a live session with its tag, id length and id prefix.
    private struct Entry {
        var session: Unmanaged<Session>?
        var meta: UInt32
        var prefix0: UInt32
        var prefix1: UInt64
        var prefix2: UInt64
    }

    /// What a probe entry must hold for an id: `meta` (hash tag and length) and the prefix.
    private struct Key {
        var meta: UInt32
        var prefix0: UInt32
        var prefix1: UInt64
        var prefix2: UInt64

        /// How many of the id's first bytes the entry holds.
        static let prefixBytes = 20

        @inline(__always)
        init(_ id: UnsafeRawBufferPointer, mixed: UInt64) {
            meta = UInt32(truncatingIfNeeded: mixed >> 48) << 16 | UInt32(min(id.count, 0xFFFF))
            if id.count >= Self.prefixBytes {
                let base = id.baseAddress!
                prefix0 = base.loadUnaligned(as: UInt32.self)
                prefix1 = base.loadUnaligned(fromByteOffset: 4, as: UInt64.self)
                prefix2 = base.loadUnaligned(fromByteOffset: 12, as: UInt64.self)
            } else {
                var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
                (prefix0, prefix1, prefix2) = withUnsafeMutableBytes(of: &scratch) { buffer in
                    if let source = id.baseAddress, id.count > 0 {
                        buffer.baseAddress!.copyMemory(from: source, byteCount: id.count)
                    }
                    return (buffer.loadUnaligned(as: UInt32.self),
                            buffer.loadUnaligned(fromByteOffset: 4, as: UInt64.self),
                            buffer.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
                }
            }
        }

        @inline(__always)
        func matches(_ entry: Entry) -> Bool {
            entry.meta == meta && entry.prefix0 == prefix0 && entry.prefix1 == prefix1 && entry.prefix2 == prefix2
        }
    }

    private var entries: UnsafeMutablePointer<Entry>
    private var capacity: Int
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
        capacity = 1024
        mask = capacity - 1
        entries = Self.allocateEntries(capacity)
    }

    deinit { entries.deallocate() }

    private static func allocateEntries(_ count: Int) -> UnsafeMutablePointer<Entry> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Entry>.stride, alignment: 64)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: count * MemoryLayout<Entry>.stride)
        return raw.bindMemory(to: Entry.self, capacity: count)
    }

    /// The session with these id bytes.
    func find(_ id: UnsafeRawBufferPointer, hash: UInt64) -> Session? {
        findUnretained(id, hash: hash)?.takeUnretainedValue()
    }

    /// The session with these id bytes, not retained: the table keeps it alive until `remove`.
    @inline(__always)
    func findUnretained(_ id: UnsafeRawBufferPointer, hash: UInt64) -> Unmanaged<Session>? {
        let mixed = Hashing.mix(hash)
        let key = Key(id, mixed: mixed)
        var position = Int(truncatingIfNeeded: mixed) & mask
        while true {
            let entry = entries + position
            if let session = entry.pointee.session {
                if key.matches(entry.pointee),
                   id.count <= Key.prefixBytes || session._withUnsafeGuaranteedRef({ $0.idEquals(id) }) {
                    return session
                }
            } else if entry.pointee.meta == 0 {
                return nil
            }
            position = (position + 1) & mask
        }
    }

    /// Adds a session (its id must not be present) as the most recently active.
    func insert(_ session: Session) {
        if (count + tombstones + 1) * 2 > capacity { rehash(growing: count * 4 >= capacity) }
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
        let target = Unmanaged.passUnretained(session).toOpaque()
        while entries[position].session?.toOpaque() != target {
            position = (position + 1) & mask
        }
        entries[position] = Entry(session: nil, meta: 1, prefix0: 0, prefix1: 0, prefix2: 0)
        tombstones += 1
        unlink(slot)
        freeSlots.append(slot)
        session.slot = -1
        count -= 1
        sessions[Int(slot)] = nil
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
        let key = Key(session.id.buffer, mixed: mixed)
        var position = Int(truncatingIfNeeded: mixed) & mask
        while entries[position].session != nil { position = (position + 1) & mask }
        if entries[position].meta != 0 { tombstones -= 1 }
        entries[position] = Entry(
            session: .passUnretained(session), meta: key.meta,
            prefix0: key.prefix0, prefix1: key.prefix1, prefix2: key.prefix2)
    }

    private func rehash(growing: Bool) {
        let size = growing ? capacity * 2 : capacity
        entries.deallocate()
        entries = Self.allocateEntries(size)
        capacity = size
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
