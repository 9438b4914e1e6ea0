import ShardRouting
import Synchronization

/// What the sender thread publishes for callers: counters and which buckets have a subscriber.
final class ClientSharedState: Sendable {
    private struct State {
        var statistics = ClientStatistics()
        var covered = [Bool](repeating: false, count: 256)
    }

    private let state = Mutex(State())

    func update(_ body: (inout ClientStatistics) -> Void) {
        state.withLock { body(&$0.statistics) }
    }

    func setSubscriptions(_ table: SubscriptionTable) {
        state.withLock { state in
            for bucket in ShardBucket.all { state.covered[Int(bucket.value)] = table.covers(bucket) }
            state.statistics.bucketsSubscribed = table.coveredBucketCount
        }
    }

    var statistics: ClientStatistics { state.withLock { $0.statistics } }

    func covers(_ bucket: ShardBucket) -> Bool { state.withLock { $0.covered[Int(bucket.value)] } }
}
