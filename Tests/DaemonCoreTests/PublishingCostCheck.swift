@testable import DaemonCore
import Foundation
import Glibc
import HistoryStore
import Logging
import ModalwatchTesting
import RuleHost
@testable import SessionEngine
import Synchronization
import XCTest
import ZeroMQ

/// A manual check of the publishing thread at a steady rate, not a timed test: it runs only
/// when MODALWATCH_PUBLISH_BENCH names a file of violations (what `modalwatch check FILE
/// --format json` prints). A sender thread hands violations over one per hand-over, paced at
/// MODALWATCH_PUBLISH_RATE a second (default 25,000: the stress stream at 100 k events/s) for
/// MODALWATCH_PUBLISH_SECONDS (default 2), to a real `PublishingThread` with a real history
/// file; a subscriber on loopback TCP notes when each arrives. For each commit spacing of
/// MODALWATCH_PUBLISH_SPACINGS (µs, default `0,300`) it prints the commits, violations per
/// commit, the CPU of everything but the sender and the subscriber (the publishing thread, the
/// checkpointer, libzmq's I/O thread) per violation, and hand-over → received p50/p99/max.
///
///     MODALWATCH_PUBLISH_BENCH=/tmp/violations.ndjson swift test --filter PublishingCostCheck
final class PublishingCostCheck: XCTestCase {
    /// Times written by one thread and read by another after it has ended.
    private final class Stamps: @unchecked Sendable {
        let times: UnsafeMutableBufferPointer<Int64>
        var threadCPUNs: Int64 = 0
        init(_ count: Int) { times = .allocate(capacity: count); times.initialize(repeating: 0) }
        deinit { times.deallocate() }
    }

    func testPublishingCostAndLatencyAtAPacedRate() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let source = environment["MODALWATCH_PUBLISH_BENCH"] else {
            throw XCTSkip("set MODALWATCH_PUBLISH_BENCH to a file of violations (modalwatch check --format json) to run")
        }
        let rate = Double(environment["MODALWATCH_PUBLISH_RATE"] ?? "") ?? 25_000
        let seconds = Double(environment["MODALWATCH_PUBLISH_SECONDS"] ?? "") ?? 2
        let spacings = (environment["MODALWATCH_PUBLISH_SPACINGS"] ?? "0,300").split(separator: ",").compactMap { Int64($0) }
        let count = Int(rate * seconds)
        let batches = try Self.batches(from: source, count: count)
        for spacing in spacings {
            let folder = try TemporaryDirectory(prefix: "publish-cost").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try run(batches, rate: rate, spacingUs: spacing, folder: folder)
        }
    }

    private func run(_ batches: [[UInt8]], rate: Double, spacingUs: Int64, folder: String) throws {
        let count = batches.count
        let context = try ZMQContext()
        defer { context.terminate() }
        var settings = PublishingThread.Settings.forTest(context, name: "cost", historyPath: folder + "/" + ViolationHistory.fileName)
        settings.commitSpacingUs = spacingUs
        let publishing = try PublishingThread.start(settings)
        let subscriber = try ZMQSocket.testSubscriber(context, to: publishing.boundEndpoint, prefix: "violation/")
        defer { subscriber.close() }
        Thread.sleep(forTimeInterval: 0.3)  // the subscription reaches the PUB socket

        let sent = Stamps(count), arrived = Stamps(count)
        let senderDone = DispatchSemaphore(value: 0)
        let handoff = publishing.handoff
        let usageBefore = Self.processCPUNs()
        let mainBefore = Self.threadCPUNs()
        let sender = Thread {
            defer { senderDone.signal() }
            let cpu = Self.threadCPUNs()
            // The hand-over's ingest end: made, used and closed on this thread.
            guard let pair = try? ZMQSocket(context, type: .pair) else { return }
            defer { pair.close() }
            try? pair.connect(handoff)
            let start = WallClock.monotonicMicroseconds() * 1000
            let interval = 1e9 / rate
            for (i, batch) in batches.enumerated() {
                let due = start + Int64(Double(i) * interval)
                while true {
                    let now = WallClock.monotonicMicroseconds() * 1000
                    if now >= due { break }
                    if due - now > 80_000 { usleep(UInt32((due - now) / 1000 - 60)) }
                }
                sent.times[i] = WallClock.monotonicMicroseconds()
                _ = try? batch.withUnsafeBytes { try HandOver.batch.send(on: pair, body: $0) }
            }
            _ = try? HandOver.finish.send(on: pair)
            sent.threadCPUNs = Self.threadCPUNs() - cpu
        }
        sender.start()
        var received = 0
        while received < count, try subscriber.receiveMultipart() != nil {
            arrived.times[received] = WallClock.monotonicMicroseconds()
            received += 1
        }
        senderDone.wait()
        publishing.join()
        let mainCPU = Self.threadCPUNs() - mainBefore
        let othersCPU = Self.processCPUNs() - usageBefore - mainCPU - sent.threadCPUNs
        XCTAssertEqual(received, count)
        let commits = publishing.statistics.historyCommits.load(ordering: .relaxed)
        XCTAssertEqual(publishing.statistics.violationsStored.load(ordering: .relaxed), UInt64(count))
        let latencies = (0..<received).map { arrived.times[$0] - sent.times[$0] }.sorted()
        func percentile(_ p: Double) -> Int64 { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        let perCommit = Double(count) / Double(max(1, commits))
        let cpu = Double(othersCPU) / 1000 / Double(count)
        print("publishing: \(count) violations at \(Int(rate))/s, commit spacing \(spacingUs) µs: \(commits) commits "
            + "(\(String(format: "%.1f", perCommit)) violations each), \(String(format: "%.2f", cpu)) µs CPU per violation "
            + "(publishing, checkpoint and I/O threads); hand-over → received p50 \(percentile(0.5)) µs, "
            + "p99 \(percentile(0.99)) µs, max \(latencies.last ?? 0) µs; load average \(Self.loadAverage())")
    }

    /// One hand-over batch per violation of the file, repeated (ids shifted) up to `count`.
    private static func batches(from source: String, count: Int) throws -> [[UInt8]] {
        var lines: [[String: Any]] = []
        for line in try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n") where line.hasPrefix("{") {
            var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            object["_line"] = String(line)
            lines.append(object)
        }
        XCTAssertFalse(lines.isEmpty)
        var batches: [[UInt8]] = []
        batches.reserveCapacity(count)
        for n in 0..<count {
            let object = lines[n % lines.count]
            let round = UInt64(n / lines.count)
            let id = try XCTUnwrap(object["id"] as? String), fingerprint = try XCTUnwrap(object["fingerprint"] as? String)
            let rule = try XCTUnwrap(object["rule"] as? String), app = try XCTUnwrap(object["app"] as? String)
            let session = Array(try XCTUnwrap(object["session"] as? String).utf8)
            let ts = try XCTUnwrap(object["ts"] as? Int64), observed = try XCTUnwrap(object["observed"] as? Int64)
            let severity = object["severity"] as? String
            let topic = Array("violation/\(app)/\(rule)".utf8)
            let json = Array(try XCTUnwrap(object["_line"] as? String).utf8)
            var batch = OutboundBatch()
            topic.withUnsafeBytes { topic in
                json.withUnsafeBytes { json in
                    session.withUnsafeBytes { session in
                        batch.appendViolation(EmittedViolation(
                            topic: topic, json: json, rule: rule, ruleSeed: 0, module: "check", severity: severity == "error" ? .error : severity == "info" ? .info : .warning,
                            app: app, session: session, ts: ts + Int64(round), observed: observed,
                            idHigh: UInt64(id.prefix(16), radix: 16)! &+ round, idLow: UInt64(id.suffix(16), radix: 16)!,
                            fingerprint: UInt64(fingerprint, radix: 16)!))
                    }
                }
            }
            batches.append(batch.bytes)
        }
        return batches
    }

    private static func threadCPUNs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    private static func processCPUNs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    private static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }
}
