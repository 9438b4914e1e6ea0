/// The live sessions: their state in one arena, found by id bytes without building a
/// String, and kept in least-recently-active order so the oldest can be released.
///
/// The arena is one growable buffer of slots reached by index, each a `SessionRecord`
/// followed by its `SessionInline` (the first stack entries and their bytes). A session that
/// ends leaves its slot (and the memory its record holds) on a free list; the next session
/// takes it, so at a steady number of sessions nothing is allocated per session.
///
/// Lookup: open addressing with linear probing over 32-byte probe entries, two to a cache
/// line (the table is 64-byte aligned). Each holds its session's slot, the top 16 bits of
/// the session's mixed hash, the id's length and its first 20 bytes: a lookup compares in
/// the entry itself, so it costs one cache line for the probe and then only the record it
/// finds (ids longer than 20 bytes compare their rest there). The LRU order is a doubly
/// linked list through the records. A class: the engine reaches it on every event.
///
/// Session ids come from outside, so the table hash is keyed with a per-process secret
/// (`Seed`): ids cannot be chosen to collide without it, and linear probing stays short.
final class SessionTable {
    /// One probe position: empty (`slot == -1`, `meta == 0`), deleted (`slot == -1`,
    /// `meta == 1`), or a live session's slot with its tag, id length and id prefix.
    private struct Entry {
        var slot: Int32
        var meta: UInt32
        var prefix0: UInt32
        var prefix1: UInt64
        var prefix2: UInt64
    }

    /// The secret the table hash is keyed with, drawn from the process's `Hasher` seed (random
    /// per process; fixed where `SWIFT_DETERMINISTIC_HASHING` is set, as for instruction counts).
    private struct Seed {
        var s0: UInt64
        var s1: UInt64
        var s2: UInt64

        init() {
            func draw(_ n: Int) -> UInt64 {
                var hasher = Hasher()
                hasher.combine(n)
                return UInt64(bitPattern: Int64(hasher.finalize()))
            }
            s0 = draw(0)
            s1 = draw(1)
            s2 = draw(2)
        }
    }

    /// What a probe entry must hold for an id: `meta` (hash tag and length) and the prefix.
    private struct Key {
        var meta: UInt32
        var prefix0: UInt32
        var prefix1: UInt64
        var prefix2: UInt64
        /// The table hash.
        var mixed: UInt64

        /// How many of the id's first bytes the entry holds.
        static let prefixBytes = 20

        /// The key of `id`, and its table hash in `mixed`, keyed with `seed` (from the prefix
        /// words, and for ids longer than the prefix the rest of their bytes too, through the
        /// process's SipHash). Reads only the id's bytes.
        @inline(__always)
        init(_ id: UnsafeRawBufferPointer, _ seed: Seed) {
            let count = id.count
            if count >= 12, let base = id.baseAddress {
                prefix0 = base.loadUnaligned(as: UInt32.self)
                prefix1 = base.loadUnaligned(fromByteOffset: 4, as: UInt64.self)
                prefix2 =
                    count >= Self.prefixBytes
                    ? base.loadUnaligned(fromByteOffset: 12, as: UInt64.self)
                    // Bytes 12 ..< count: the last 8, shifted down past those before 12.
                    : base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                        >> UInt64((Self.prefixBytes - count) * 8)
            } else {
                var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
                (prefix0, prefix1, prefix2) = withUnsafeMutableBytes(of: &scratch) { buffer in
                    if let source = id.baseAddress, count > 0 {
                        for i in 0..<count { buffer[i] = source.load(fromByteOffset: i, as: UInt8.self) }
                    }
                    return (
                        buffer.loadUnaligned(as: UInt32.self),
                        buffer.loadUnaligned(fromByteOffset: 4, as: UInt64.self),
                        buffer.loadUnaligned(fromByteOffset: 12, as: UInt64.self)
                    )
                }
            }
            var hash =
                (Hashing.mix(prefix1 ^ seed.s1) &+ Hashing.mix(prefix2 ^ seed.s2))
                ^ (UInt64(prefix0) << 32 | UInt64(count)) ^ seed.s0
            if count > Self.prefixBytes {
                var hasher = Hasher()
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: id[Self.prefixBytes...]))
                hash ^= UInt64(bitPattern: Int64(hasher.finalize()))
            }
            mixed = Hashing.mix(hash)
            meta = UInt32(truncatingIfNeeded: mixed >> 48) << 16 | UInt32(min(count, 0xFFFF))
        }

        @inline(__always)
        func matches(_ entry: Entry) -> Bool {
            entry.meta == meta && entry.prefix0 == prefix0 && entry.prefix1 == prefix1 && entry.prefix2 == prefix2
        }
    }

    private var entries: UnsafeMutablePointer<Entry>
    private let seed = Seed()
    /// Where the records' memory beyond their slots comes from.
    private let pool = UnsafeMutablePointer<SpillPool>.allocate(capacity: 1)
    private var capacity: Int
    private var mask: Int
    /// The arena: slots `0 ..< slotCount` are initialized, live or free.
    private var slots: UnsafeMutableRawPointer
    private var slotCapacity: Int
    /// Bytes from one slot to the next: a record, then its inline part, 16-byte aligned.
    @inline(__always)
    private static var slotStride: Int { (MemoryLayout<SessionRecord>.stride + SessionInline.size + 15) & ~15 }
    private static let slotAlignment = 16
    /// Slots, live or free: a scan in slices (`Engine.continueScan`) walks `0..<slotCount`.
    private(set) var slotCount = 0
    /// The first free slot; the rest follow through `next`.
    private var freeHead: Int32 = -1
    private var head: Int32 = -1
    private var tail: Int32 = -1
    private var tombstones = 0
    /// Live sessions.
    private(set) var count = 0

    init() {
        capacity = 1024
        mask = capacity - 1
        entries = Self.allocateEntries(capacity)
        slotCapacity = 256
        slots = .allocate(byteCount: slotCapacity * Self.slotStride, alignment: Self.slotAlignment)
        pool.initialize(to: SpillPool())
    }

    deinit {
        entries.deallocate()
        for slot in 0..<slotCount {
            handle(Int32(slot)).releaseSpill()
            record(slot).deinitialize(count: 1)
        }
        slots.deallocate()
        pool.deinitialize(count: 1)
        pool.deallocate()
    }

    /// The record in `slot`.
    @inline(__always)
    private func record(_ slot: Int) -> UnsafeMutablePointer<SessionRecord> {
        (slots + slot * Self.slotStride).assumingMemoryBound(to: SessionRecord.self)
    }

    private static func allocateEntries(_ count: Int) -> UnsafeMutablePointer<Entry> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Entry>.stride, alignment: 64)
        let entries = raw.bindMemory(to: Entry.self, capacity: count)
        entries.initialize(repeating: Entry(slot: -1, meta: 0, prefix0: 0, prefix1: 0, prefix2: 0), count: count)
        return entries
    }

    @inline(__always)
    private func handle(_ slot: Int32) -> Session { Session(record: record(Int(slot)), pool: pool) }

    /// The session with these id bytes.
    @inline(__always)
    func find(_ id: UnsafeRawBufferPointer) -> Session? {
        let key = Key(id, seed)
        var position = Int(truncatingIfNeeded: key.mixed) & mask
        while true {
            let entry = entries + position
            let slot = entry.pointee.slot
            if slot >= 0 {
                if key.matches(entry.pointee) {
                    let session = handle(slot)
                    if id.count <= Key.prefixBytes || session.idEquals(id) { return session }
                }
            } else if entry.pointee.meta == 0 {
                return nil
            }
            position = (position + 1) & mask
        }
    }

    /// How many probe entries a lookup of `id` reads (1: its first position), for the tests of
    /// the keyed hash.
    func probes(_ id: UnsafeRawBufferPointer) -> Int {
        let key = Key(id, seed)
        var position = Int(truncatingIfNeeded: key.mixed) & mask
        var read = 1
        while true {
            let entry = entries[position]
            if entry.slot >= 0, key.matches(entry) {
                if id.count <= Key.prefixBytes || handle(entry.slot).idEquals(id) { return read }
            } else if entry.slot < 0, entry.meta == 0 {
                return read
            }
            position = (position + 1) & mask
            read += 1
        }
    }

    /// Adds a session with these id bytes (which must not be present) in `app`, as the most
    /// recently active, in a free record if there is one. Handles made before may be stale
    /// after this (the arena may move).
    func add(id: UnsafeRawBufferPointer, hash: UInt64, app: AppState) -> Session {
        if (count + tombstones + 1) * 2 > capacity { rehash(growing: count * 4 >= capacity) }
        let slot: Int32
        if freeHead >= 0 {
            slot = freeHead
            freeHead = record(Int(slot)).pointee.next
        } else {
            if slotCount == slotCapacity { growSlots() }
            slot = Int32(slotCount)
            (slots + slotCount * Self.slotStride).bindMemory(to: SessionRecord.self, capacity: 1).initialize(
                to: SessionRecord()
            )
            slotCount += 1
        }
        record(Int(slot)).pointee.start(id: id, hash: hash, app: app)
        place(slot)
        linkAtHead(slot)
        count += 1
        return handle(slot)
    }

    /// Removes a session; its record keeps its memory for the next session.
    func remove(_ session: Session) {
        let slot = self.slot(of: session)
        guard slot >= 0, slot < slotCount, record(slot).pointee.live else { return }
        var position = Int(truncatingIfNeeded: Key(handle(Int32(slot)).idBuffer, seed).mixed) & mask
        while entries[position].slot != Int32(slot) {
            position = (position + 1) & mask
        }
        entries[position] = Entry(slot: -1, meta: 1, prefix0: 0, prefix1: 0, prefix2: 0)
        tombstones += 1
        unlink(Int32(slot))
        record(slot).pointee.live = false
        record(slot).pointee.app = nil
        record(slot).pointee.next = freeHead
        freeHead = Int32(slot)
        count -= 1
    }

    /// Marks a (live) session the most recently active.
    @inline(__always)
    func touch(_ session: Session) {
        let slot = Int32(self.slot(of: session))
        guard slot != head else { return }
        // Not the head, so it has a previous session, and the list has a head.
        let moved = session.record
        let previous = moved.pointee.previous
        let next = moved.pointee.next
        record(Int(previous)).pointee.next = next
        if next >= 0 { record(Int(next)).pointee.previous = previous } else { tail = previous }
        moved.pointee.previous = -1
        moved.pointee.next = head
        record(Int(head)).pointee.previous = slot
        head = slot
    }

    /// The least recently active session.
    var leastRecentlyActive: Session? { tail >= 0 ? handle(tail) : nil }

    /// The session in `slot`, if it holds one.
    func session(inSlot slot: Int) -> Session? { record(slot).pointee.live ? handle(Int32(slot)) : nil }

    /// Every live session, most recently active first.
    func allSessions() -> [Session] {
        var result: [Session] = []
        result.reserveCapacity(count)
        var slot = head
        while slot >= 0 {
            result.append(handle(slot))
            slot = record(Int(slot)).pointee.next
        }
        return result
    }

    @inline(__always)
    private func slot(of session: Session) -> Int {
        (UnsafeMutableRawPointer(session.record) - slots) / Self.slotStride
    }

    private func place(_ slot: Int32) {
        let key = Key(handle(slot).idBuffer, seed)
        var position = Int(truncatingIfNeeded: key.mixed) & mask
        while entries[position].slot >= 0 { position = (position + 1) & mask }
        if entries[position].meta != 0 { tombstones -= 1 }
        entries[position] = Entry(
            slot: slot,
            meta: key.meta,
            prefix0: key.prefix0,
            prefix1: key.prefix1,
            prefix2: key.prefix2
        )
    }

    private func rehash(growing: Bool) {
        let size = growing ? capacity * 2 : capacity
        entries.deallocate()
        entries = Self.allocateEntries(size)
        capacity = size
        mask = size - 1
        tombstones = 0
        for slot in 0..<slotCount where record(slot).pointee.live { place(Int32(slot)) }
    }

    /// Moves the arena to a buffer twice its size.
    private func growSlots() {
        let larger = slotCapacity * 2
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: larger * Self.slotStride, alignment: Self.slotAlignment)
        let recordSize = MemoryLayout<SessionRecord>.stride
        for slot in 0..<slotCount {
            let from = slots + slot * Self.slotStride
            let to = fresh + slot * Self.slotStride
            to.bindMemory(to: SessionRecord.self, capacity: 1)
                .moveInitialize(from: from.assumingMemoryBound(to: SessionRecord.self), count: 1)
            (to + recordSize).copyMemory(from: from + recordSize, byteCount: Self.slotStride - recordSize)
            let moved = to.assumingMemoryBound(to: SessionRecord.self)
            // Stack entries' ids in the inline part moved with it.
            if moved.pointee.arenaHeap == nil { Session(record: moved, pool: pool).moveIDs(by: to - from) }
        }
        slots.deallocate()
        slots = fresh
        slotCapacity = larger
    }

    private func linkAtHead(_ slot: Int32) {
        record(Int(slot)).pointee.previous = -1
        record(Int(slot)).pointee.next = head
        if head >= 0 { record(Int(head)).pointee.previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private func unlink(_ slot: Int32) {
        let p = record(Int(slot)).pointee.previous
        let n = record(Int(slot)).pointee.next
        if p >= 0 { record(Int(p)).pointee.next = n } else { head = n }
        if n >= 0 { record(Int(n)).pointee.previous = p } else { tail = p }
        record(Int(slot)).pointee.previous = -1
        record(Int(slot)).pointee.next = -1
    }
}
