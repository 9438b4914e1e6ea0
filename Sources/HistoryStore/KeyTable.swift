/// A set of keys by 64-bit hash, open addressing, for the keys of one segment (its ids, apps,
/// rules, sessions): each key is two 64-bit words the caller gives meaning to, and keys with the
/// same hash are told apart by the caller's `matches`. Cleared in time proportional to its
/// entries; its storage is kept from one commit to the next.
struct KeyTable {
    /// One key: its hash and two words (a range of the segment's bytes, or an id's halves).
    struct Entry {
        var hash: UInt64
        var first: UInt64
        var second: UInt64
    }

    /// The keys, in the order they were first inserted.
    private(set) var entries: [Entry] = []
    /// Index into `entries` plus one; 0 is an empty slot. A power of two long.
    private var slots = [Int32](repeating: 0, count: 64)

    /// Inserts the key unless one with the same hash that `matches` is there; returns whether it was new.
    mutating func insert(_ entry: Entry, matches: (Entry) -> Bool) -> Bool {
        place(entry, matches: matches).inserted
    }

    /// Inserts the key unless one with the same hash that `matches` is there; returns its index in
    /// `entries` (the new one's or the existing one's) and whether it was new.
    mutating func place(_ entry: Entry, matches: (Entry) -> Bool) -> (index: Int, inserted: Bool) {
        if (entries.count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entry.hash) & mask
        while slots[slot] != 0 {
            let index = Int(slots[slot]) - 1
            let existing = entries[index]
            if existing.hash == entry.hash && matches(existing) { return (index, false) }
            slot = (slot + 1) & mask
        }
        entries.append(entry)
        slots[slot] = Int32(entries.count)
        return (entries.count - 1, true)
    }

    /// Empties the table, keeping its storage.
    mutating func removeAll() {
        let mask = slots.count - 1
        for entry in entries {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] != 0 {
                slots[slot] = 0
                slot = (slot + 1) & mask
            }
        }
        entries.removeAll(keepingCapacity: true)
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }
}
