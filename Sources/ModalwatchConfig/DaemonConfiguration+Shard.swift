import ShardRouting

/// What sharding (scale.md) changes in the daemon's configuration.
extension DaemonConfiguration {
    /// The prefixes the ingest socket subscribes to: a sharded daemon's bucket prefixes
    /// `ui/<bb>/` and nothing else; otherwise the `subscribe` prefixes.
    public var ingestSubscriptions: [String] {
        shard?.subscriptionPrefixes ?? subscribe
    }

    /// Why `fresh` cannot be put in force by a reload, or nil: the shard changes only on a restart.
    public func shardChangeRefusal(to fresh: DaemonConfiguration) -> String? {
        guard fresh.shard != shard else { return nil }
        let describe: (ShardAssignment?) -> String = { $0.map { "\($0)" } ?? "none" }
        return
            "the shard changes from \(describe(shard)) to \(describe(fresh.shard)); a shard change needs a restart of every daemon"
    }
}
