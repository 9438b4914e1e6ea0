/// Counts by key in bounded memory: past `2 × capacity` keys, the ones with the
/// smallest counts are dropped until `capacity` remain (a lossy "heavy hitters"
/// count). While no key was dropped every count is exact; after that a key that
/// was dropped and came back may be under-counted by at most `droppedMax`.
public struct TopCounter<Key: Hashable, Value> {
    /// One key's count and what the caller keeps with it.
    public struct Entry {
        /// The key.
        public let key: Key
        /// Its count.
        public var count: Int
        /// The caller's value (texts, marks...).
        public var value: Value
    }

    /// Keys kept after a prune.
    public let capacity: Int
    /// The largest count dropped so far (0: every count is exact).
    public private(set) var droppedMax = 0
    /// Keys dropped so far.
    public private(set) var droppedKeys = 0
    private var index: [Key: Int] = [:]
    private var entries: [Entry] = []

    /// A counter that keeps at least `capacity` keys.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Keys held now.
    public var count: Int { entries.count }

    /// Adds `amount` to `key`, creating its value with `make` when it is new; then lets `update` change the value.
    public mutating func add(_ key: Key, amount: Int = 1, make: () -> Value, update: (inout Value) -> Void = { _ in }) {
        if let i = index[key] {
            entries[i].count += amount
            update(&entries[i].value)
            return
        }
        var value = make()
        update(&value)
        index[key] = entries.count
        entries.append(Entry(key: key, count: amount, value: value))
        if entries.count > 2 * capacity { prune() }
    }

    /// The entry for `key`, if held.
    public func entry(_ key: Key) -> Entry? {
        index[key].map { entries[$0] }
    }

    /// The `n` largest counts, largest first; ties in `order`.
    public func top(_ n: Int, tieBreak: (Entry, Entry) -> Bool) -> [Entry] {
        Array(entries.sorted { $0.count != $1.count ? $0.count > $1.count : tieBreak($0, $1) }.prefix(n))
    }

    /// Every entry held, in no order.
    public var all: [Entry] { entries }

    private mutating func prune() {
        entries.sort { $0.count > $1.count }
        for dropped in entries[capacity...] {
            droppedMax = max(droppedMax, dropped.count)
            droppedKeys += 1
        }
        entries.removeSubrange(capacity...)
        index.removeAll(keepingCapacity: true)
        for (i, entry) in entries.enumerated() { index[entry.key] = i }
    }
}

extension TopCounter: Sendable where Key: Sendable, Value: Sendable {}
extension TopCounter.Entry: Sendable where Key: Sendable, Value: Sendable {}
