public import ShardRouting

/// The subscriptions the client's `XPUB` socket has seen (each arrives once when the first
/// daemon subscribes to a prefix, and its removal once when the last one unsubscribes or
/// goes away): so the client knows, per message, whether any daemon will get it, and which
/// buckets a daemon subscribed to anew (``takeNewlyCovered()``).
public struct SubscriptionTable: Sendable {
    private var prefixes: [[UInt8]: Int] = [:]
    /// For each bucket: how many prefixes cover all of `ui/<bb>/`.
    private var bucketCover = [Int](repeating: 0, count: 256)
    /// For each bucket: whether it went from no covering prefix to one since ``takeNewlyCovered()``.
    private var newlyCovered = [Bool](repeating: false, count: 256)
    private var anyNewlyCovered = false
    /// How many prefixes are longer than `ui/<bb>/` (each covers only part of a bucket).
    private var narrowPrefixes = 0

    /// An empty table.
    public init() {}

    /// Applies one message read from an `XPUB` socket (`1` or `0`, then the prefix).
    /// Returns false for a message that is not a subscription.
    @discardableResult
    public mutating func apply(_ message: [UInt8]) -> Bool {
        guard let first = message.first, first <= 1 else { return false }
        let prefix = Array(message.dropFirst())
        if first == 1 {
            let count = prefixes[prefix, default: 0]
            prefixes[prefix] = count + 1
            if count == 0 { adjust(prefix, by: 1) }
        } else if let count = prefixes[prefix] {
            prefixes[prefix] = count > 1 ? count - 1 : nil
            if count == 1 { adjust(prefix, by: -1) }
        }
        return true
    }

    /// Counts a prefix in (or out of) the buckets it covers.
    private mutating func adjust(_ prefix: [UInt8], by step: Int) {
        if prefix.count > 6 {
            narrowPrefixes += step
        } else if prefix.count == 6, let bucket = ShardBucket(topic: prefix) {
            cover(Int(bucket.value), by: step)
        } else {
            for index in 0..<256 where Self.bucketPrefixes[index].starts(with: prefix) { cover(index, by: step) }
        }
    }

    private mutating func cover(_ index: Int, by step: Int) {
        if step > 0 && bucketCover[index] == 0 {
            newlyCovered[index] = true
            anyNewlyCovered = true
        }
        bucketCover[index] += step
    }

    /// The buckets covered now that had no covering prefix at some time since the last call:
    /// a daemon subscribed to them anew (its first connection, or after a restart or an
    /// unsubscription). Forgets them. A prefix longer than `ui/<bb>/` covers no bucket, so it is
    /// never reported here.
    public mutating func takeNewlyCovered() -> [ShardBucket] {
        guard anyNewlyCovered else { return [] }
        var buckets: [ShardBucket] = []
        for index in 0..<256 where newlyCovered[index] {
            newlyCovered[index] = false
            if bucketCover[index] > 0 { buckets.append(ShardBucket(UInt8(index))) }
        }
        anyNewlyCovered = false
        return buckets
    }

    /// `ui/<bb>/` of every bucket, as bytes.
    private static let bucketPrefixes: [[UInt8]] = ShardBucket.all.map { Array($0.topicPrefix.utf8) }

    /// Whether a message with this topic reaches at least one subscriber.
    public func matches(topic: [UInt8], bucket: ShardBucket) -> Bool {
        if bucketCover[Int(bucket.value)] > 0 { return true }
        guard narrowPrefixes > 0 else { return false }
        return prefixes.keys.contains { topic.starts(with: $0) }
    }

    /// Whether every message of `bucket` reaches a subscriber.
    public func covers(_ bucket: ShardBucket) -> Bool { bucketCover[Int(bucket.value)] > 0 }

    /// Buckets wholly covered now.
    public var coveredBucketCount: Int { bucketCover.lazy.filter { $0 > 0 }.count }

    /// Prefixes subscribed now.
    public var prefixCount: Int { prefixes.count }
}
