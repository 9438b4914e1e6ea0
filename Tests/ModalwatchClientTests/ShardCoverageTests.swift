import ShardRouting
import XCTest

/// Which buckets a set of daemons owns twice or not at all.
final class ShardCoverageTests: XCTestCase {
    private func member(_ name: String, _ shard: String?) -> ShardCoverage.Member {
        ShardCoverage.Member(name: name, shard: shard.flatMap { ShardAssignment(parsing: $0) })
    }

    func testAnExactCoverHasNoWarning() {
        let coverage = ShardCoverage([member("a", "0/3"), member("b", "1/3"), member("c", "2/3")])
        XCTAssertTrue(coverage.isExact)
        XCTAssertEqual(coverage.warnings, [])
    }

    func testTheSameShardTwiceOverlapsOnItsBucketsAndLeavesTheRest() {
        let coverage = ShardCoverage([member("a", "0/2"), member("b", "0/2")])
        XCTAssertEqual(coverage.overlaps, [ShardCoverage.Overlap(daemons: ["a", "b"], buckets: 128)])
        XCTAssertEqual(coverage.uncovered, 128)
        XCTAssertEqual(coverage.warnings.count, 2)
    }

    func testAMissingShardLeavesItsBucketsUncovered() {
        let coverage = ShardCoverage([member("a", "0/3"), member("b", "1/3")])
        XCTAssertEqual(coverage.overlaps, [])
        XCTAssertEqual(coverage.uncovered, 85)
    }

    func testDifferentCountsAndUnshardedDaemonsAreComparedByBucket() {
        // 0/2 owns the even buckets, 0/4 every fourth: 64 shared; an unsharded daemon owns all.
        let coverage = ShardCoverage([member("a", "0/2"), member("b", "0/4"), member("c", nil)])
        XCTAssertEqual(
            coverage.overlaps,
            [
                ShardCoverage.Overlap(daemons: ["a", "b"], buckets: 64),
                ShardCoverage.Overlap(daemons: ["a", "c"], buckets: 128),
                ShardCoverage.Overlap(daemons: ["b", "c"], buckets: 64),
            ]
        )
        XCTAssertEqual(coverage.uncovered, 0)
    }
}
