/// One daemon's share of the buckets (`scale.md`): `shard: { index, count, key }`.
/// It owns every bucket `bb` with `bb mod count == index`.
public struct ShardAssignment: Equatable, Sendable, CustomStringConvertible {
    /// Most daemons one deployment may be sharded over.
    public static let maximumCount = 256

    /// This daemon's index, 0…count−1.
    public let index: Int
    /// How many daemons share the buckets, 1–256.
    public let count: Int
    /// What the bucket is computed from.
    public let key: ShardKey

    /// An assignment, or nil when `count` is not 1–256 or `index` not 0…count−1.
    public init?(index: Int, count: Int, key: ShardKey = .app) {
        guard (1...Self.maximumCount).contains(count), (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
        self.key = key
    }

    /// Parses `I/N` (the `--shard` flag); nil when it is not two whole numbers in range.
    public init?(parsing text: String, key: ShardKey = .app) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count, key: key)
    }

    /// Whether this daemon owns `bucket`.
    @inline(__always)
    public func owns(_ bucket: ShardBucket) -> Bool {
        Int(bucket.value) % count == index
    }

    /// The buckets this daemon owns, in order.
    public var ownedBuckets: [ShardBucket] {
        ShardBucket.all.filter(owns)
    }

    /// The ingest subscriptions: `ui/<bb>/` for every bucket owned, and nothing else.
    public var subscriptionPrefixes: [String] {
        ownedBuckets.map(\.topicPrefix)
    }

    /// Whether this daemon owns a session, by the shard key.
    public func owns(app: String, session: String) -> Bool {
        owns(ShardBucket(key: key == .app ? app : session))
    }

    /// `I/N by KEY`.
    public var description: String { "\(index)/\(count) by \(key.rawValue)" }
}
