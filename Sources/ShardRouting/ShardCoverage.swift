/// How a set of daemons covers the 256 buckets (`scale.md`): which daemons own the same
/// buckets (each of those buckets' events is judged twice) and how many buckets no daemon
/// owns (their events are judged by none). A daemon without a shard owns every bucket.
public struct ShardCoverage: Sendable, Equatable {
    /// One daemon: a name for people (its control endpoint) and its shard, nil when unsharded.
    public struct Member: Sendable, Equatable {
        /// How the daemon is named (its control endpoint).
        public var name: String
        /// Its shard; nil for a daemon that takes every bucket.
        public var shard: ShardAssignment?

        /// A member.
        public init(name: String, shard: ShardAssignment?) {
            self.name = name
            self.shard = shard
        }
    }

    /// Two daemons that own some of the same buckets.
    public struct Overlap: Sendable, Equatable {
        /// The two daemons' names, in the order given.
        public var daemons: [String]
        /// How many buckets both own.
        public var buckets: Int

        /// An overlap.
        public init(daemons: [String], buckets: Int) {
            self.daemons = daemons
            self.buckets = buckets
        }
    }

    /// Every pair of daemons that share a bucket, in the order given.
    public let overlaps: [Overlap]
    /// Buckets no daemon owns.
    public let uncovered: Int

    /// The coverage of `members`.
    public init(_ members: [Member]) {
        let owned = members.map { member in
            Set(ShardBucket.all.filter { member.shard?.owns($0) ?? true }.map(\.value))
        }
        var overlaps: [Overlap] = []
        for i in members.indices {
            for j in members.indices where j > i {
                let shared = owned[i].intersection(owned[j]).count
                if shared > 0 {
                    overlaps.append(Overlap(daemons: [members[i].name, members[j].name], buckets: shared))
                }
            }
        }
        self.overlaps = overlaps
        uncovered = 256 - owned.reduce(into: Set<UInt8>()) { $0.formUnion($1) }.count
    }

    /// A coverage found elsewhere (a daemon's `status`).
    public init(overlaps: [Overlap], uncovered: Int) {
        self.overlaps = overlaps
        self.uncovered = uncovered
    }

    /// Whether every bucket has exactly one owner.
    public var isExact: Bool { overlaps.isEmpty && uncovered == 0 }

    /// The problems as sentences for people, one an element; empty when exact.
    public var warnings: [String] {
        overlaps.map {
            "\($0.daemons.joined(separator: " and ")) both own \($0.buckets) bucket(s): their events are judged twice"
        }
            + (uncovered > 0
                ? ["\(uncovered) of 256 buckets are owned by no daemon: their events are judged by none"] : [])
    }
}
