public import ShardRouting

/// The subscriptions the client's `XPUB` socket has seen (each arrives once when the first
/// daemon subscribes to a prefix, and its removal once when the last one unsubscribes or
/// goes away): so the client knows, per message, whether any daemon will get it.
public struct SubscriptionTable: Sendable {
    private var prefixes: [[UInt8]: Int] = [:]
    /// For each bucket: how many prefixes cover all of `ui/<bb>/`.
    private var bucketCover = [Int](repeating: 0, count: 256)
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
            bucketCover[Int(bucket.value)] += step
        } else {
            for index in 0..<256 where Self.bucketPrefixes[index].starts(with: prefix) { bucketCover[index] += step }
        }
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
