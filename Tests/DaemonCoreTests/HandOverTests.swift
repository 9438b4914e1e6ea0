import Foundation
import Synchronization
import XCTest

@testable import DaemonCore

/// The hand-over between the ingest and the publishing thread, with real threads: records
/// arrive whole and in order, the bound refuses without losing, a sleeping taker wakes for
/// an offer and for `finish`, and nothing offered before `finish` is lost.
final class HandOverTests: XCTestCase {
    func testRecordsArriveInOrderAndTheTakerSwapsIntoAnEmptyBuffer() {
        let handOver = HandOver()
        XCTAssertTrue(offer([1, 2, 3], to: handOver))
        XCTAssertTrue(offer([4, 5], to: handOver))
        var records: [UInt8] = []
        XCTAssertEqual(handOver.take(into: &records), .records)
        XCTAssertEqual(records, [1, 2, 3, 4, 5])
        XCTAssertEqual(handOver.take(into: &records), .nothing, "nothing more waits")
        XCTAssertTrue(offer([6], to: handOver))
        XCTAssertEqual(handOver.take(into: &records), .records)
        XCTAssertEqual(records, [1, 2, 3, 4, 5, 6], "appended to what the taker holds")
    }

    func testTheBoundRefusesABatchThatDoesNotFitAndTakesItOnceThereIsRoom() {
        let handOver = HandOver(limitBytes: 8)
        XCTAssertTrue(offer(Array(repeating: 1, count: 6), to: handOver))
        XCTAssertFalse(offer(Array(repeating: 2, count: 3), to: handOver), "6 + 3 bytes is past the bound of 8")
        XCTAssertEqual(handOver.waitingBytes, 6, "a refused batch adds nothing")
        var records: [UInt8] = []
        XCTAssertEqual(handOver.take(into: &records), .records)
        XCTAssertTrue(offer(Array(repeating: 2, count: 3), to: handOver))
        XCTAssertTrue(offer([], to: handOver))
        XCTAssertFalse(offer(Array(repeating: 3, count: 6), to: handOver))
        records.removeAll()
        XCTAssertEqual(handOver.take(into: &records), .records)
        XCTAssertTrue(
            offer(Array(repeating: 4, count: 20), to: handOver),
            "an empty hand-over takes a batch of any size"
        )
    }

    func testFinishEndsTheTakerOnlyOnceEverythingIsTakenAndRefusesMore() {
        let handOver = HandOver()
        XCTAssertTrue(offer([7, 8], to: handOver))
        handOver.finish()
        XCTAssertTrue(handOver.isFinished)
        XCTAssertFalse(offer([9], to: handOver), "nothing is taken after finish")
        var records: [UInt8] = []
        XCTAssertEqual(handOver.take(into: &records, waitingMs: 1_000), .records, "what came before finish comes first")
        XCTAssertEqual(records, [7, 8])
        XCTAssertEqual(handOver.take(into: &records, waitingMs: 1_000), .finished)
    }

    func testASleepingTakerWakesForAnOfferAndForFinishAndTimesOutOtherwise() {
        let handOver = HandOver()
        var records: [UInt8] = []
        let started = DispatchTime.now().uptimeNanoseconds
        XCTAssertEqual(handOver.take(into: &records, waitingMs: 50), .nothing)
        XCTAssertGreaterThanOrEqual(
            DispatchTime.now().uptimeNanoseconds - started,
            45_000_000,
            "slept until the timeout"
        )

        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
            _ = [UInt8(42)].withUnsafeBytes { handOver.offer($0) }
        }
        XCTAssertEqual(handOver.take(into: &records, waitingMs: 10_000), .records)
        XCTAssertEqual(records, [42])

        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { handOver.finish() }
        let before = DispatchTime.now().uptimeNanoseconds
        XCTAssertEqual(handOver.take(into: &records, waitingMs: 10_000), .finished)
        XCTAssertLessThan(
            DispatchTime.now().uptimeNanoseconds - before,
            5_000_000_000,
            "woken by finish, not by the timeout"
        )
    }

    /// One producer offers numbered records (retrying when refused), one consumer takes with
    /// waits: every record arrives once, in order, whatever the interleaving.
    func testAProducerAndAConsumerOnTwoThreadsLoseNothingAndKeepTheOrder() {
        let handOver = HandOver(limitBytes: 4_096)
        let count = 200_000
        let producer = Thread {
            var next = 0
            while next < count {
                let size = min(count - next, Int.random(in: 1...300))
                var batch: [UInt8] = []
                batch.reserveCapacity(size * 4)
                for n in next..<(next + size) {
                    withUnsafeBytes(of: UInt32(n).littleEndian) { batch.append(contentsOf: $0) }
                }
                while !batch.withUnsafeBytes({ handOver.offer($0) }) { sched_yield() }
                next += size
            }
            handOver.finish()
        }
        producer.start()
        var received: [UInt8] = []
        var takes = 0
        while true {
            let taken = handOver.take(into: &received, waitingMs: 1_000)
            if taken == .finished { break }
            takes += 1
        }
        XCTAssertEqual(received.count, count * 4)
        var expected = 0
        received.withUnsafeBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 4) {
                let value = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                if value != expected {
                    XCTFail("record \(expected) missing: \(value) came instead")
                    return
                }
                expected += 1
            }
        }
        XCTAssertEqual(expected, count)
        XCTAssertGreaterThan(takes, 1)
    }

    private func offer(_ bytes: [UInt8], to handOver: HandOver) -> Bool {
        bytes.withUnsafeBytes { handOver.offer($0) }
    }
}
