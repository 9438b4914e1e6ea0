import ByteBasics
import Foundation
import HistoryStore
import Logging
import ModalwatchTesting
import RuleHost
import Synchronization
import XCTest
import ZeroMQ

@testable import DaemonCore
@testable import SessionEngine

/// The publishing thread's group commit, with real sockets and a real history file: a
/// burst of hand-overs goes into few transactions, every violation is stored before it is
/// published, and a lone hand-over is committed and published at once.
final class GroupCommitTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "group-commit").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testABurstOfHandOversIsCommittedInFewTransactionsAndEveryViolationStoredThenPublished() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let publishing = try PublishingThread.start(
            .forTest(context, historyPath: folder + "/" + ViolationHistory.fileName)
        )
        let subscriber = try ZMQSocket.testSubscriber(context, to: publishing.boundEndpoint, prefix: "violation/")
        defer { subscriber.close() }
        Thread.sleep(forTimeInterval: 0.3)  // the subscription reaches the PUB socket

        // One violation alone: committed and published without waiting for company.
        try handOver(violations: 0..<1, on: publishing.handOver)
        XCTAssertNotNil(try subscriber.receiveMultipart())
        let history = try ViolationHistory(path: folder + "/" + ViolationHistory.fileName, readOnly: true)
        XCTAssertEqual(try history.count(), 1, "published only once stored")
        XCTAssertEqual(publishing.statistics.historyCommits.load(ordering: .relaxed), 1)

        // A burst: 400 hand-overs of 5 violations each, sent faster than one commit takes.
        let batches = 400
        let perBatch = 5
        for batch in 0..<batches {
            try handOver(violations: (1 + batch * perBatch)..<(1 + (batch + 1) * perBatch), on: publishing.handOver)
        }
        var received = 0
        while received < batches * perBatch, try subscriber.receiveMultipart() != nil { received += 1 }
        XCTAssertEqual(received, batches * perBatch)
        publishing.handOver.finish()
        publishing.join()

        let stored = publishing.statistics.violationsStored.load(ordering: .relaxed)
        let commits = publishing.statistics.historyCommits.load(ordering: .relaxed)
        XCTAssertEqual(stored, UInt64(1 + batches * perBatch))
        XCTAssertEqual(try history.count(), 1 + batches * perBatch)
        XCTAssertLessThan(
            commits,
            UInt64(batches / 4),
            "a burst's hand-overs share commits (\(commits) commits for \(batches) hand-overs)"
        )
    }

    /// Hand-overs paced faster than the commit spacing (one violation every 50 µs, as the
    /// ingest thread hands them over at 100 k events/s) share commits: at most one commit
    /// starts per `commitSpacingUs` (1 ms here) while the store is busy, every violation is
    /// stored before it is published, and they are published in the order handed over.
    func testPacedHandOversShareCommitsSpacedApartAndKeepTheirOrder() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        var settings = PublishingThread.Settings.forTest(context, historyPath: folder + "/" + ViolationHistory.fileName)
        settings.commitSpacingUs = 1_000
        let publishing = try PublishingThread.start(settings)
        let subscriber = try ZMQSocket.testSubscriber(context, to: publishing.boundEndpoint, prefix: "violation/")
        defer { subscriber.close() }
        Thread.sleep(forTimeInterval: 0.3)  // the subscription reaches the PUB socket

        let count = 400
        let started = PosixClock.monotonic.microseconds()
        for n in 0..<count {
            try handOver(violations: n..<(n + 1), on: publishing.handOver)
            usleep(50)
        }
        var published: [Int] = []
        while published.count < count, let parts = try subscriber.receiveMultipart() {
            let json = String(decoding: parts.frames[1], as: UTF8.self)
            published.append(Int(json.split(separator: ":").last!.dropLast())!)
        }
        let elapsedUs = PosixClock.monotonic.microseconds() - started
        publishing.handOver.finish()
        publishing.join()

        XCTAssertEqual(published, Array(0..<count), "published once each, in the order handed over")
        let history = try ViolationHistory(path: folder + "/" + ViolationHistory.fileName, readOnly: true)
        XCTAssertEqual(try history.count(), count)
        XCTAssertEqual(publishing.statistics.violationsStored.load(ordering: .relaxed), UInt64(count))
        let commits = publishing.statistics.historyCommits.load(ordering: .relaxed)
        // Without the spacing, an idle publisher commits each hand-over on its own (~400).
        XCTAssertLessThanOrEqual(
            commits,
            UInt64(elapsedUs / 1_000 + 2),
            "\(commits) commits in \(elapsedUs) µs"
        )
        XCTAssertLessThan(commits, UInt64(count), "\(commits) commits for \(count) hand-overs")
    }

    /// Hands over one batch of the numbered violations (ids from the number, so each is new).
    private func handOver(violations numbers: Range<Int>, on handOver: HandOver) throws {
        var batch = OutboundBatch()
        let topic = Array("violation/com.example.app/test-rule".utf8)
        let session = Array("s-1".utf8)
        for number in numbers {
            let json = Array(#"{"v":1,"n":\#(number)}"#.utf8)
            topic.withUnsafeBytes { topic in
                json.withUnsafeBytes { json in
                    session.withUnsafeBytes { session in
                        batch.appendViolation(
                            EmittedViolation(
                                topic: topic,
                                json: json,
                                rule: "test-rule",
                                ruleSeed: 0,
                                module: "test",
                                severity: .warning,
                                app: "com.example.app",
                                session: session,
                                ts: Int64(number),
                                observed: Int64(number),
                                idHigh: UInt64(number),
                                idLow: 0x5eed,
                                fingerprint: UInt64(number)
                            )
                        )
                    }
                }
            }
        }
        XCTAssertTrue(handOver.offer(batch))
    }
}
