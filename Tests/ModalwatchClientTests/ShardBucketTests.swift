import ByteBasics
import ShardRouting
import XCTest

final class ShardBucketTests: XCTestCase {
    /// scale.md's check values.
    func testCheckValuesOfTheSpec() {
        XCTAssertEqual(ShardBucket(key: "com.example.mail").hex, "67")
        XCTAssertEqual(ShardBucket(key: "com.example.photos").hex, "f5")
        XCTAssertEqual(ShardBucket(key: "a").hex, "8c")
        XCTAssertEqual(ShardBucket(key: "").hex, "25")
    }

    func testBytesAndStringsHashAlike() {
        for key in ["com.example.mail", "Ünïcødé", "", "x"] {
            let bytes = Array(key.utf8)
            XCTAssertEqual(bytes.withUnsafeBytes { ShardBucket(keyBytes: $0) }, ShardBucket(key: key))
        }
        XCTAssertEqual(FNV1a64.hash(""), 14_695_981_039_346_656_037)
    }

    func testTopicPrefixAndParsing() {
        XCTAssertEqual(ShardBucket(0x07).topicPrefix, "ui/07/")
        XCTAssertEqual(ShardBucket(0xf5).topicPrefix, "ui/f5/")
        XCTAssertEqual(ShardBucket(topic: Array("ui/f5/com.example.photos/S1".utf8)), ShardBucket(0xf5))
        XCTAssertNil(ShardBucket(topic: Array("ui/F5/x".utf8)), "upper case is not a bucket")
        XCTAssertNil(ShardBucket(topic: Array("ui/com.example.mail/S1".utf8)))
        XCTAssertNil(ShardBucket(topic: Array("ui/0".utf8)))
    }

    func testTopicsCarryBucketAppAndSession() {
        let bucket = ShardTopic.bucket(app: "com.example.mail", session: "S1", key: .app)
        XCTAssertEqual(
            String(decoding: ShardTopic.topic(bucket: bucket, app: "com.example.mail", session: "S1"), as: UTF8.self),
            "ui/67/com.example.mail/S1"
        )
        XCTAssertEqual(
            String(decoding: ShardTopic.topic(bucket: bucket, app: "com.example.mail", session: nil), as: UTF8.self),
            "ui/67/com.example.mail/"
        )
        XCTAssertEqual(ShardTopic.bucket(app: "com.example.mail", session: "a", key: .session).hex, "8c")
        let long = String(repeating: "s", count: 2000)
        XCTAssertEqual(ShardTopic.topic(bucket: bucket, app: "x", session: long).count, ShardTopic.maximumLength)
    }

    func testEveryBucketHasExactlyOneOwner() {
        for count in [1, 2, 3, 7, 16, 255, 256] {
            var owners = [Int](repeating: 0, count: 256)
            for index in 0..<count {
                let shard = ShardAssignment(index: index, count: count)!
                for bucket in shard.ownedBuckets { owners[Int(bucket.value)] += 1 }
                XCTAssertEqual(shard.subscriptionPrefixes.count, shard.ownedBuckets.count)
                XCTAssertTrue(shard.subscriptionPrefixes.allSatisfy { $0.hasPrefix("ui/") && $0.count == 6 })
            }
            XCTAssertEqual(owners, [Int](repeating: 1, count: 256), "count \(count)")
        }
        XCTAssertEqual(ShardAssignment(index: 1, count: 3)!.ownedBuckets.count, 85)
        XCTAssertEqual(ShardAssignment(index: 0, count: 3)!.ownedBuckets.count, 86)
        XCTAssertTrue(ShardAssignment(index: 1, count: 3)!.owns(ShardBucket(0x67)))  // 103 mod 3 == 1
    }

    func testAssignmentsOutOfRangeAndParsing() {
        XCTAssertNil(ShardAssignment(index: 3, count: 3))
        XCTAssertNil(ShardAssignment(index: 0, count: 0))
        XCTAssertNil(ShardAssignment(index: 0, count: 257))
        XCTAssertEqual(
            ShardAssignment(parsing: "2/5", key: .session),
            ShardAssignment(index: 2, count: 5, key: .session)
        )
        for bad in ["", "1", "1/", "/3", "a/3", "3/3", "-1/3", "1/3/4", "1 /3"] {
            XCTAssertNil(ShardAssignment(parsing: bad), bad)
        }
    }
}
