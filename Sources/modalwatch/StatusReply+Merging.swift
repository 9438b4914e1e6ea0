import ControlProtocol
import ShardRouting

/// One `status` for several daemons (scale.md): counters summed, and what differs between
/// daemons (edition, version, modules) marked so that each daemon's own line shows it.
extension StatusReply {
    /// The replies merged: every counter as its ``StatusCounter/merge`` says (summed, the
    /// longest times the longest), the rates summed, `shard_buckets` summed (256
    /// when the daemons cover every bucket once), `uptime_s` the youngest daemon's, `counts_age_s` the oldest, `edition`
    /// and `version` the common value or `mixed`, `modules` each distinct module once, the
    /// fault fields merged (`FaultStatus.merge`).
    static func merged(_ replies: [StatusReply]) -> StatusReply {
        guard var merged = replies.first else { return StatusReply() }
        for s in replies.dropFirst() {
            merged.uptimeSeconds = min(merged.uptimeSeconds, s.uptimeSeconds)
            merged.countsAgeSeconds = max(merged.countsAgeSeconds, s.countsAgeSeconds)
            merged.started = max(merged.started, s.started)
            if merged.edition != s.edition { merged.edition = "mixed" }
            if merged.version != s.version { merged.version = "mixed" }
            for module in s.modules where !merged.modules.contains(module) { merged.modules.append(module) }
            for failure in s.moduleFailures where !merged.moduleFailures.contains(failure) {
                merged.moduleFailures.append(failure)
            }
            for change in s.moduleFilesChanged where !merged.moduleFilesChanged.contains(change) {
                merged.moduleFilesChanged.append(change)
            }
            for (role, list) in s.endpoints { merged.endpoints[role, default: []] += list }
            merged.counters.merge(s.counters)
            merged.shardBuckets += s.shardBuckets
            merged.rejectedByReason.merge(s.rejectedByReason, uniquingKeysWith: +)
            merged.eventsPerSecond += s.eventsPerSecond
            merged.violationsRateLimitedByRule.merge(s.violationsRateLimitedByRule, uniquingKeysWith: +)
            merged.violationsRateLimitedByApp.merge(s.violationsRateLimitedByApp, uniquingKeysWith: +)
            merged.languagesSkipped.merge(s.languagesSkipped, uniquingKeysWith: +)
            merged.curve = merged.curve || s.curve
            merged.faults.merge(s.faults)
        }
        if replies.count > 1 {
            merged.history = nil
            merged.shard = nil
            merged.shardConflicts = []
            merged.bucketsUncovered = nil
        }
        return merged
    }

    /// How the answering daemons cover the buckets, named by their endpoints; nil when none
    /// of them is sharded (several unsharded daemons are several deployments).
    static func coverage(_ daemons: [(endpoint: String, reply: StatusReply)]) -> ShardCoverage? {
        guard daemons.contains(where: { $0.reply.shard != nil }) else { return nil }
        return ShardCoverage(
            daemons.map { daemon in
                ShardCoverage.Member(
                    name: daemon.endpoint,
                    shard: daemon.reply.shard.flatMap {
                        ShardAssignment(index: $0.index, count: $0.count, key: ShardKey(rawValue: $0.key) ?? .app)
                    }
                )
            }
        )
    }

    /// What this reply says of the shards' coverage (`shard_conflicts`, `buckets_uncovered`), or nil.
    var reportedCoverage: ShardCoverage? {
        guard let uncovered = bucketsUncovered else { return nil }
        return ShardCoverage(
            overlaps: shardConflicts.map { .init(daemons: $0.daemons, buckets: $0.buckets) },
            uncovered: uncovered
        )
    }

    /// `coverage` put in the merged reply's `shard_conflicts` and `buckets_uncovered`.
    mutating func note(_ coverage: ShardCoverage?) {
        guard let coverage else { return }
        shardConflicts = coverage.overlaps.map { ShardConflict(daemons: $0.daemons, buckets: $0.buckets) }
        bucketsUncovered = coverage.uncovered
    }

    /// One daemon's own line: what may differ between daemons.
    func daemonLine(endpoint: String) -> String {
        let modules = self.modules.map { "\($0.name) \($0.version)" }.joined(separator: ", ")
        let shard =
            self.shard.map { "shard \($0.index)/\($0.count) by \($0.key), \(shardBuckets) buckets" } ?? "unsharded"
        return
            "\(endpoint): \(version), edition \(edition), up \(RelativeTime.duration(ms: uptimeSeconds * 1000)), \(shard), "
            + "\(self[.eventsReceived]) events, modules \(modules.isEmpty ? "none" : modules)"
    }
}
