public import ShardRouting

/// The subscriptions the client's `XPUB` socket has seen (each arrives once when the first
/// daemon subscribes to a prefix, and its removal once when the last one unsubscribes or
/// goes away): so the client knows, per message, whether any daemon will get it.
public struct SubscriptionTable: Sendable {
    private var prefixes: [[UInt8]: Int] = [:]
    /// For each bucket: some prefix covers all of `ui/<bb>/`.
    private var bucketCovered = [Bool](repeating: false, count: 256)
    /// Some prefix is longer than `ui/<bb>/` (it covers only part of a bucket).
    private var hasNarrowPrefixes = false

    /// An empty table.
    public init() {}

    /// Applies one message read from an `XPUB` socket (`1` or `0`, then the prefix).
    /// Returns false for a message that is not a subscription.
    @discardableResult
    public mutating func apply(_ message: [UInt8]) -> Bool {
        guard let first = message.first, first <= 1 else { return false }
        let prefix = Array(message.dropFirst())
        if first == 1 {
            prefixes[prefix, default: 0] += 1
        } else if let count = prefixes[prefix] {
            prefixes[prefix] = count > 1 ? count - 1 : nil
        }
        recompute()
        return true
    }

    /// Whether a message with this topic reaches at least one subscriber.
    public func matches(topic: [UInt8], bucket: ShardBucket) -> Bool {
        if bucketCovered[Int(bucket.value)] { return true }
        guard hasNarrowPrefixes else { return false }
        return prefixes.keys.contains { topic.starts(with: $0) }
    }

    /// Whether every message of `bucket` reaches a subscriber.
    public func covers(_ bucket: ShardBucket) -> Bool { bucketCovered[Int(bucket.value)] }

    /// Buckets wholly covered now.
    public var coveredBucketCount: Int { bucketCovered.lazy.filter { $0 }.count }

    /// Prefixes subscribed now.
    public var prefixCount: Int { prefixes.count }

    /// `ui/<bb>/` of every bucket, as bytes.
    private static let bucketPrefixes: [[UInt8]] = ShardBucket.all.map { Array($0.topicPrefix.utf8) }

    private mutating func recompute() {
        hasNarrowPrefixes = false
        for index in 0..<256 { bucketCovered[index] = false }
        for prefix in prefixes.keys {
            if prefix.count > 6 { hasNarrowPrefixes = true; continue }
            for index in 0..<256 where Self.bucketPrefixes[index].starts(with: prefix) {
                bucketCovered[index] = true
            }
        }
    }
}
