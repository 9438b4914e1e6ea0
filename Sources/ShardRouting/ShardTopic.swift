/// Builds shard topics `ui/<bb>/<app>/<session>` (`scale.md`) into a byte buffer.
public enum ShardTopic: Sendable {
    /// Most bytes of a topic frame (events.md); longer app or session parts are cut to fit.
    public static let maximumLength = 1024

    /// The bucket of an event, by `key`.
    public static func bucket(app: String, session: String, key: ShardKey) -> ShardBucket {
        ShardBucket(key: key == .app ? app : session)
    }

    /// The topic for a message of `bucket` holding events of `app` (and of `session`, or
    /// of several sessions when nil: the session part is then empty).
    public static func topic(bucket: ShardBucket, app: String, session: String?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(6 + app.utf8.count + 1 + (session?.utf8.count ?? 0))
        bytes += bucket.topicPrefix.utf8
        bytes += app.utf8
        bytes.append(UInt8(ascii: "/"))
        if let session { bytes += session.utf8 }
        if bytes.count > maximumLength { bytes.removeLast(bytes.count - maximumLength) }
        return bytes
    }
}
