import ShardRouting
import XCTest

@testable import ModalwatchClient

final class EventQueueTests: XCTestCase {
    private static func event(_ n: Int) -> PendingEvent {
        PendingEvent(bucket: ShardBucket(UInt8(n & 255)), app: "a", session: "s\(n)", bytes: Array("\(n)".utf8))
    }

    func testAFullQueueDropsAndCountsWithoutBlocking() throws {
        let queue = EventQueue(capacity: 4, wakeup: try WakePipe())
        for n in 0..<4 { XCTAssertTrue(queue.offer(Self.event(n))) }
        XCTAssertFalse(queue.offer(Self.event(4)))
        XCTAssertFalse(queue.offer(Self.event(5)))
        XCTAssertEqual(queue.counts.accepted, 4)
        XCTAssertEqual(queue.counts.dropped, 2)
        var taken: [PendingEvent] = []
        queue.takeAll(into: &taken)
        XCTAssertEqual(taken.map(\.session), ["s0", "s1", "s2", "s3"], "oldest first")
        XCTAssertEqual(queue.count, 0)
        // The ring wraps around.
        for n in 10..<13 { XCTAssertTrue(queue.offer(Self.event(n))) }
        taken.removeAll()
        queue.takeAll(into: &taken)
        XCTAssertEqual(taken.map(\.session), ["s10", "s11", "s12"])
    }

    func testManyThreadsLoseNothingUnderCapacity() throws {
        let queue = EventQueue(capacity: 40_000, wakeup: try WakePipe())
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for n in 0..<5000 { _ = queue.offer(Self.event(thread * 10_000 + n)) }
        }
        XCTAssertEqual(queue.counts.accepted, 40_000)
        XCTAssertEqual(queue.counts.dropped, 0)
        var taken: [PendingEvent] = []
        queue.takeAll(into: &taken)
        XCTAssertEqual(Set(taken.map(\.session)).count, 40_000)
    }
}
