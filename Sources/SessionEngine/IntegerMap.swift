/// `UInt64` keys to `Int64` values: the rules' per-session and per-app state (counters,
/// firings made, quiet windows), which a rule reaches on almost every event.
///
/// The first two keys live in the map itself (no allocation: most sessions' maps never hold
/// more); from the third, open addressing with linear probing over one allocation, a key's
/// position the top bits of a strong mix of the key and a per-process secret (`secret`; no
/// SipHash). The keys come from event bytes through public hashes (`Hashing.ruleKey` of
/// FNV-1a), so without the secret a producer could choose keys that share one probe run, each
/// insert then reading one position per earlier key; with it, probe runs stay short whatever
/// the keys. Keys are stored as given: what a map holds, and a snapshot of it, does not depend
/// on the secret; only the order `forEach` visits keys in does (snapshots take the maps as
/// dictionaries and sets, whose order is the process's own already).
/// Nothing is ever removed but everything at once, and `removeAll` keeps the room, so a map
/// that has its size allocates nothing more.
/// Key 0 marks an empty position; the key 0 itself is kept beside the table.
/// A session's maps take their table from the session table's `SpillPool` (the `pool`
/// argument) and give it back there (`release(pool:)`); an app's from `malloc`.
/// Non-copyable: it owns its memory.
struct IntegerMap: ~Copyable {
    private struct Entry {
        var key: UInt64
        var value: Int64
    }

    /// The table, once the map has outgrown `inline` (which is then unused).
    private var entries: UnsafeMutablePointer<Entry>?
    private var inline0 = Entry(key: 0, value: 0)
    private var inline1 = Entry(key: 0, value: 0)
    private var zeroValue: Int64 = 0
    private var capacity32: Int32 = 0
    private var count32: Int32 = 0
    private var shift: UInt8 = 64
    private var hasZero = false
    /// Whether `entries` came from a `SpillPool` (then it goes back there, never to `free`).
    private var pooled = false

    /// The secret positions are keyed with: drawn once from the process's `Hasher` seed (random
    /// per process; fixed where `SWIFT_DETERMINISTIC_HASHING` is set, as for instruction counts).
    /// One for every map of the process: immutable once drawn, and no room in each map (a field
    /// would take a map from 64 bytes to 72, and a session's record holds two).
    private static let secret: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x4D57_496E_744D_6170 as UInt64)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }()

    /// Keys held.
    var count: Int { Int(count32) }
    private var capacity: Int { Int(capacity32) }
    /// Whether one more key would fill the table past three quarters (then it grows first).
    private var isFull: Bool { (count + 1) * 4 > capacity * 3 }

    /// An empty map; it allocates on its third key.
    init() {}

    /// A map holding `values`.
    init(_ values: [UInt64: Int64]) {
        for (key, value) in values { set(key, value) }
    }

    deinit {
        if !pooled { entries?.deallocate() }
    }

    /// Gives the table back to `pool` (or `free`), leaving the map empty.
    mutating func release(pool: UnsafeMutablePointer<SpillPool>?) {
        removeAll()
        if let entries {
            if pooled { pool?.pointee.deallocate(entries, count: capacity) } else { entries.deallocate() }
        }
        entries = nil
        pooled = false
        capacity32 = 0
        shift = 64
    }

    /// Where `key` goes first: the top bits of the mix of `key` and `secret`.
    @inline(__always)
    private func position(_ key: UInt64, _ secret: UInt64) -> Int {
        Int(truncatingIfNeeded: Hashing.mix(key ^ secret) >> UInt64(shift))
    }

    /// The position holding `key`, or the empty one where it would go (`entries` must exist).
    @inline(__always)
    private func probe(_ key: UInt64) -> (index: Int, found: Bool) {
        let entries = self.entries!
        let mask = capacity - 1
        var index = position(key, Self.secret)
        while true {
            let held = entries[index].key
            if held == key { return (index, true) }
            if held == 0 { return (index, false) }
            index = (index + 1) & mask
        }
    }

    /// The value for `key`, if any.
    @inline(__always)
    func value(_ key: UInt64) -> Int64? {
        if key == 0 { return hasZero ? zeroValue : nil }
        guard let entries else {
            if inline0.key == key { return inline0.value }
            if inline1.key == key { return inline1.value }
            return nil
        }
        let (index, found) = probe(key)
        return found ? entries[index].value : nil
    }

    /// Whether `key` is held.
    @inline(__always)
    func contains(_ key: UInt64) -> Bool { value(key) != nil }

    /// Sets `key`'s value.
    @inline(__always)
    mutating func set(_ key: UInt64, _ value: Int64, pool: UnsafeMutablePointer<SpillPool>? = nil) {
        if key == 0 {
            if !hasZero { count32 += 1 }
            hasZero = true
            zeroValue = value
            return
        }
        if entries == nil {
            if inline0.key == key || inline0.key == 0 {
                if inline0.key == 0 { count32 += 1 }
                inline0 = Entry(key: key, value: value)
                return
            }
            if inline1.key == key || inline1.key == 0 {
                if inline1.key == 0 { count32 += 1 }
                inline1 = Entry(key: key, value: value)
                return
            }
            grow(pool: pool)
        } else if isFull {
            grow(pool: pool)
        }
        let (index, found) = probe(key)
        if !found {
            entries![index].key = key
            count32 += 1
        }
        entries![index].value = value
    }

    /// Adds `delta` to `key`'s value (0 when absent) and returns the sum; a `delta` of 0
    /// reads without inserting.
    @inline(__always)
    mutating func add(_ key: UInt64, _ delta: Int64, pool: UnsafeMutablePointer<SpillPool>? = nil) -> Int64 {
        if delta != 0, key != 0, let entries {
            // One probe: it finds the key, or the empty position a new key takes when the table has room.
            let (index, found) = probe(key)
            if found {
                entries[index].value &+= delta
                return entries[index].value
            }
            if !isFull {
                entries[index] = Entry(key: key, value: delta)
                count32 += 1
                return delta
            }
            set(key, delta, pool: pool)
            return delta
        }
        let sum = (value(key) ?? 0) &+ delta
        if delta != 0 { set(key, sum, pool: pool) }
        return sum
    }

    /// Inserts `key` (as a set); returns whether it was absent.
    @inline(__always)
    mutating func insert(_ key: UInt64, pool: UnsafeMutablePointer<SpillPool>? = nil) -> Bool {
        if key != 0, let entries, !isFull {
            // One probe: it finds the key or the empty position it takes.
            let (index, found) = probe(key)
            if found { return false }
            entries[index] = Entry(key: key, value: 1)
            count32 += 1
            return true
        }
        if contains(key) { return false }
        set(key, 1, pool: pool)
        return true
    }

    /// Forgets every key, keeping the room.
    mutating func removeAll() {
        if let entries, count > (hasZero ? 1 : 0) {
            UnsafeMutableRawPointer(entries).initializeMemory(
                as: UInt8.self,
                repeating: 0,
                count: capacity * MemoryLayout<Entry>.stride
            )
        }
        inline0 = Entry(key: 0, value: 0)
        inline1 = Entry(key: 0, value: 0)
        count32 = 0
        hasZero = false
        zeroValue = 0
    }

    /// Every key and its value, in no particular order.
    func forEach(_ body: (UInt64, Int64) -> Void) {
        if hasZero { body(0, zeroValue) }
        guard let entries else {
            if inline0.key != 0 { body(inline0.key, inline0.value) }
            if inline1.key != 0 { body(inline1.key, inline1.value) }
            return
        }
        for i in 0..<capacity where entries[i].key != 0 { body(entries[i].key, entries[i].value) }
    }

    /// The map as a dictionary (for snapshots and inspection, not the hot path).
    var dictionary: [UInt64: Int64] {
        if count == 0 { return [:] }
        var result: [UInt64: Int64] = [:]
        result.reserveCapacity(count)
        forEach { result[$0] = $1 }
        return result
    }

    /// The keys as a set.
    var keySet: Set<UInt64> {
        if count == 0 { return [] }
        var result = Set<UInt64>(minimumCapacity: count)
        forEach { key, _ in result.insert(key) }
        return result
    }

    /// How many positions a lookup of `key` reads (1: its first position; 0 while the map has no
    /// table, or for key 0), for the tests of the keyed positions.
    func probes(_ key: UInt64) -> Int {
        guard let entries, key != 0 else { return 0 }
        let mask = capacity - 1
        var index = position(key, Self.secret)
        var read = 1
        while entries[index].key != key, entries[index].key != 0 {
            index = (index + 1) & mask
            read += 1
        }
        return read
    }

    /// Replaces the contents by `values`.
    mutating func replace(with values: [UInt64: Int64], pool: UnsafeMutablePointer<SpillPool>? = nil) {
        removeAll()
        if values.isEmpty { return }
        for (key, value) in values { set(key, value, pool: pool) }
    }

    /// Replaces the contents by `keys` (as a set).
    mutating func replace(withKeys keys: some Sequence<UInt64>, pool: UnsafeMutablePointer<SpillPool>? = nil) {
        removeAll()
        for key in keys { set(key, 1, pool: pool) }
    }

    /// Doubles the table (the first: 8 positions, taking the inline keys), in a block of
    /// `pool` when given.
    private mutating func grow(pool: UnsafeMutablePointer<SpillPool>?) {
        let oldEntries = entries
        let oldCapacity = capacity
        let oldPooled = pooled
        let larger = max(8, oldCapacity * 2)
        capacity32 = Int32(larger)
        shift = UInt8(64 - larger.trailingZeroBitCount)
        let fresh =
            pool?.pointee.allocate(Entry.self, count: larger) ?? UnsafeMutablePointer<Entry>.allocate(capacity: larger)
        pooled = pool != nil
        UnsafeMutableRawPointer(fresh).initializeMemory(
            as: UInt8.self,
            repeating: 0,
            count: larger * MemoryLayout<Entry>.stride
        )
        entries = fresh
        let mask = larger - 1
        let secret = Self.secret
        func place(_ entry: Entry) {
            var index = position(entry.key, secret)
            while fresh[index].key != 0 { index = (index + 1) & mask }
            fresh[index] = entry
        }
        guard let oldEntries else {
            if inline0.key != 0 { place(inline0) }
            if inline1.key != 0 { place(inline1) }
            inline0 = Entry(key: 0, value: 0)
            inline1 = Entry(key: 0, value: 0)
            return
        }
        for i in 0..<oldCapacity where oldEntries[i].key != 0 { place(oldEntries[i]) }
        if oldPooled { pool?.pointee.deallocate(oldEntries, count: oldCapacity) } else { oldEntries.deallocate() }
    }
}
