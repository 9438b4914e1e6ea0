import Foundation
import Logging
import RuleHost
import XCTest

@testable import DaemonCore
@testable import SessionEngine

/// The ingest thread's side of the hand-over: a flush never waits, a batch the hand-over
/// refuses stays and grows and goes over whole later, and `finish` hands over the last
/// batch before it says nothing more will come. Every violation arrives once, in order.
final class OutboxTests: XCTestCase {
    private let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    func testAFlushHandsTheBatchOverAndTheTakerReadsItsRecordsInOrder() {
        let handOver = HandOver()
        let outbox = Outbox(handOver: handOver, clock: DaemonClock(), logger: logger)
        for n in 0..<5 { emit(n, into: outbox) }
        XCTAssertTrue(outbox.hasRecords)
        outbox.flush()
        XCTAssertFalse(outbox.hasRecords)
        XCTAssertFalse(outbox.hasPending)
        XCTAssertEqual(numbers(takenFrom: handOver), Array(0..<5))
        XCTAssertEqual(outbox.violationsFound, 5)
    }

    func testABatchTheFullHandOverRefusesStaysGrowsAndGoesOverWholeOnceThereIsRoom() {
        let handOver = HandOver(limitBytes: 1_024)
        let outbox = Outbox(handOver: handOver, clock: DaemonClock(), logger: logger)
        // Fill the hand-over past its bound: the publishing thread takes nothing meanwhile.
        var next = fillUntilRefused(outbox)
        let waiting = handOver.waitingBytes
        for _ in 0..<20 {
            emit(next, into: outbox)
            next += 1
            outbox.flush()
        }
        XCTAssertTrue(outbox.hasPending, "still refused: nothing was taken")
        XCTAssertEqual(handOver.waitingBytes, waiting, "a refused flush adds nothing to the hand-over")

        var taken = numbers(takenFrom: handOver)
        outbox.flush()
        XCTAssertFalse(outbox.hasPending, "the grown batch went over whole")
        taken += numbers(takenFrom: handOver)
        XCTAssertEqual(taken, Array(0..<next), "every violation once, in order")
        XCTAssertEqual(outbox.handoverDropped, 0)
    }

    func testFinishWaitsForRoomForTheLastBatchThenEndsTheHandOver() {
        let handOver = HandOver(limitBytes: 1_024)
        let outbox = Outbox(handOver: handOver, clock: DaemonClock(), logger: logger)
        let next = fillUntilRefused(outbox)
        // The publishing thread: takes after a while, until the hand-over is finished.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var taken: [Int] = []
        Thread {
            usleep(100_000)
            var records: [UInt8] = []
            while handOver.take(into: &records, waitingMs: 1_000) != .finished {}
            taken = Self.numbers(in: records)
            done.signal()
        }.start()
        outbox.finish()
        XCTAssertTrue(handOver.isFinished)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(taken, Array(0..<next), "the batch that waited for room came before the end")
    }

    /// Emits and flushes violations 0, 1, 2… one at a time until the hand-over refuses a flush;
    /// returns how many were emitted (the last one waits in the outbox).
    private func fillUntilRefused(_ outbox: Outbox) -> Int {
        var next = 0
        while !outbox.hasPending {
            emit(next, into: outbox)
            next += 1
            outbox.flush()
        }
        return next
    }

    /// Emits violation number `n` (its number in the JSON and in `ts`).
    private func emit(_ n: Int, into outbox: Outbox) {
        let topic = Array("violation/com.example.app/test-rule".utf8)
        let json = Array(#"{"v":1,"n":\#(n)}"#.utf8)
        let session = Array("s-1".utf8)
        topic.withUnsafeBytes { topic in
            json.withUnsafeBytes { json in
                session.withUnsafeBytes { session in
                    outbox.emit(
                        EmittedViolation(
                            topic: topic,
                            json: json,
                            rule: "test-rule",
                            ruleSeed: 1,
                            module: "test",
                            severity: .warning,
                            app: "com.example.app",
                            session: session,
                            ts: Int64(n),
                            observed: 0,
                            idHigh: UInt64(n),
                            idLow: 1,
                            fingerprint: 2
                        )
                    )
                }
            }
        }
    }

    /// The violations' numbers in what the hand-over holds now (taken).
    private func numbers(takenFrom handOver: HandOver) -> [Int] {
        var records: [UInt8] = []
        _ = handOver.take(into: &records)
        return Self.numbers(in: records)
    }

    private static func numbers(in records: [UInt8]) -> [Int] {
        records.withUnsafeBytes { bytes in
            var reader = OutboundBatchReader(bytes)
            var numbers: [Int] = []
            while let record = reader.next() {
                guard case .violation(_, _, let columns) = record else { continue }
                numbers.append(Int(columns.ts))
            }
            return numbers
        }
    }
}
