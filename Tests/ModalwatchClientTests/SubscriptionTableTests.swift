import ModalwatchClient
import ShardRouting
import XCTest

final class SubscriptionTableTests: XCTestCase {
    private func message(_ subscribe: Bool, _ prefix: String) -> [UInt8] { [subscribe ? 1 : 0] + Array(prefix.utf8) }

    func testBucketPrefixesCoverTheirBucketOnly() {
        var table = SubscriptionTable()
        let mail = ShardBucket(0x67)
        let topic = ShardTopic.topic(bucket: mail, app: "com.example.mail", session: "S1")
        XCTAssertFalse(table.matches(topic: topic, bucket: mail))
        table.apply(message(true, "ui/67/"))
        XCTAssertTrue(table.matches(topic: topic, bucket: mail))
        XCTAssertFalse(table.covers(ShardBucket(0x68)))
        XCTAssertEqual(table.coveredBucketCount, 1)
        table.apply(message(false, "ui/67/"))
        XCTAssertFalse(table.matches(topic: topic, bucket: mail))
        XCTAssertEqual(table.coveredBucketCount, 0)
    }

    func testEverythingAndNarrowPrefixes() {
        var table = SubscriptionTable()
        table.apply(message(true, ""))
        XCTAssertEqual(table.coveredBucketCount, 256)
        table.apply(message(false, ""))
        table.apply(message(true, "ui/67/com.example.mail/"))
        let mail = ShardBucket(0x67)
        XCTAssertFalse(table.covers(mail))
        XCTAssertTrue(
            table.matches(topic: ShardTopic.topic(bucket: mail, app: "com.example.mail", session: "S"), bucket: mail)
        )
        XCTAssertFalse(
            table.matches(topic: ShardTopic.topic(bucket: mail, app: "com.other", session: "S"), bucket: mail)
        )
        XCTAssertFalse(table.apply([7, 1, 2]), "not a subscription message")
    }

    func testBucketsSubscribedAnewAreReportedOnce() {
        var table = SubscriptionTable()
        table.apply(message(true, "ui/67/"))
        XCTAssertEqual(table.takeNewlyCovered(), [ShardBucket(0x67)], "the first subscription")
        XCTAssertEqual(table.takeNewlyCovered(), [])
        table.apply(message(true, ""))
        XCTAssertEqual(table.takeNewlyCovered().count, 255, "every bucket but the one already covered")
        table.apply(message(false, ""))
        table.apply(message(false, "ui/67/"))
        table.apply(message(true, "ui/67/"))
        XCTAssertEqual(table.takeNewlyCovered(), [ShardBucket(0x67)], "covered again after none covered it")
        table.apply(message(false, "ui/67/"))
        table.apply(message(true, "ui/67/com.example.mail/"))
        XCTAssertEqual(table.takeNewlyCovered(), [], "a narrower prefix covers no bucket")
        table.apply(message(true, "ui/68/"))
        table.apply(message(false, "ui/68/"))
        XCTAssertEqual(table.takeNewlyCovered(), [], "subscribed anew, but gone again")
    }
}
