import Foundation
import ModalwatchTesting
import Glibc
import HistoryStore
import XCTest

/// A manual throughput check of the history store, not a timed test: it runs only when
/// MODALWATCH_HISTORY_BENCH names a file of violations, one JSON object a line (what
/// `modalwatch check FILE --format json` prints), and prints rows/s, CPU µs per violation
/// WAL pages and bytes per violation (the frames each commit adds, the WAL checkpointed between
/// commits outside the timing) and the file size. Run it in a release build:
///
///     modalwatch check /tmp/bench1m.ndjson --format json > /tmp/bench-violations.ndjson
///     MODALWATCH_HISTORY_BENCH=/tmp/bench-violations.ndjson swift test -c release --filter HistoryThroughputCheck
///
/// It writes as the publishing thread does: groups of MODALWATCH_HISTORY_GROUP violations
/// (default 1000) in one transaction each, every column bound from bytes.
///
/// `modalwatch-bench --only store` makes the same figures on the bench's own stream in its
/// run (Benchmarks/.../StoreBenchmark.swift); this check stays for a file of one's own and for
/// histories of millions of rows (MODALWATCH_HISTORY_REPEAT).
final class HistoryThroughputCheck: XCTestCase {
    /// The violations' columns, as the daemon's hand-over batch has them.
    private struct Columns {
        var idHigh: UInt64, idLow: UInt64, fingerprint: UInt64, ts: Int64, observed: Int64
        var json: Range<Int>, rule: Range<Int>, app: Range<Int>, session: Range<Int>, severity: Range<Int>
    }

    func testStoreThroughput() throws {
        guard let source = ProcessInfo.processInfo.environment["MODALWATCH_HISTORY_BENCH"] else {
            throw XCTSkip("set MODALWATCH_HISTORY_BENCH to a file of violations (modalwatch check --format json) to run")
        }
        let group = Int(ProcessInfo.processInfo.environment["MODALWATCH_HISTORY_GROUP"] ?? "") ?? 1000
        // The file written this many times over (ids and ts shifted each round): a history of ≥ 1 M rows
        // from a smaller file, to time the queries on.
        let repeats = Int(ProcessInfo.processInfo.environment["MODALWATCH_HISTORY_REPEAT"] ?? "") ?? 1
        var bytes: [UInt8] = []
        var rows: [Columns] = []
        func append(_ text: String) -> Range<Int> {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            return start..<bytes.count
        }
        for line in try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n") where line.hasPrefix("{") {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try XCTUnwrap(object["id"] as? String), fingerprint = try XCTUnwrap(object["fingerprint"] as? String)
            rows.append(Columns(
                idHigh: try XCTUnwrap(UInt64(id.prefix(16), radix: 16)), idLow: try XCTUnwrap(UInt64(id.suffix(16), radix: 16)),
                fingerprint: try XCTUnwrap(UInt64(fingerprint, radix: 16)),
                ts: try XCTUnwrap((object["ts"] as? NSNumber)?.int64Value), observed: try XCTUnwrap((object["observed"] as? NSNumber)?.int64Value),
                json: append(String(line)), rule: append(try XCTUnwrap(object["rule"] as? String)),
                app: append(try XCTUnwrap(object["app"] as? String)), session: append(try XCTUnwrap(object["session"] as? String)),
                severity: append(try XCTUnwrap(object["severity"] as? String))))
        }
        XCTAssertFalse(rows.isEmpty, "no violations in \(source)")

        let directory = try TemporaryDirectory(prefix: "mw-history-bench").url
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(ViolationHistory.fileName).path
        var history: ViolationHistory? = try ViolationHistory(path: path, checkpointsElsewhere: true)
        // The WAL's frames after each commit, checkpointed between commits (outside the timing),
        // as the daemon's checkpointer thread does.
        let counter = try WALFrameCounter(path: path)
        let pageSize = try counter.pageSize()
        var frames = 0
        var wall = Duration.zero, cpu = 0.0
        try bytes.withUnsafeBytes { all in
            func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: all[range]) }
            for round in 0..<repeats {
            var next = 0
            while next < rows.count {
                let end = min(next + group, rows.count)
                let wallStart = ContinuousClock.now, cpuStart = Self.threadCPUSeconds()
                try history?.write { writer in
                    for c in rows[next..<end] {
                        try writer.insert(
                            idHigh: c.idHigh ^ UInt64(round), idLow: c.idLow, fingerprint: c.fingerprint, rule: slice(c.rule), app: slice(c.app),
                            session: slice(c.session), severity: slice(c.severity), ts: c.ts + Int64(round) * 1_000_000_000,
                            observed: c.observed, json: slice(c.json))
                    }
                }
                cpu += Self.threadCPUSeconds() - cpuStart
                wall += ContinuousClock.now - wallStart
                frames += try counter.framesSinceLastCall()
                next = end
            }
            }
        }
        // The queries of `violations` and `session ID`, each timed (median of 5) on the whole history.
        if let history, let sample = rows.last {
            let text = { (range: Range<Int>) in String(decoding: bytes[range], as: UTF8.self) }
            let queries: [(String, HistoryQuery)] = [
                ("newest 100", HistoryQuery(limit: 100)),
                ("rule, 100", HistoryQuery(rule: text(sample.rule), limit: 100)),
                ("app, 100", HistoryQuery(app: text(sample.app), limit: 100)),
                ("session (app and session, as `session ID`), 50", HistoryQuery(app: text(sample.app), session: text(sample.session), limit: 50)),
                ("since the newest minute, 100", HistoryQuery(sinceObserved: sample.observed - 60_000, limit: 100)),
                ("a rare rule, 100", HistoryQuery(rule: "no-such-rule", limit: 100)),
            ]
            for (name, query) in queries {
                var times: [Double] = []
                var found = 0
                for _ in 0..<5 {
                    let start = ContinuousClock.now
                    found = try history.find(query).count
                    let took = ContinuousClock.now - start
                    times.append(Double(took.components.seconds) * 1e3 + Double(took.components.attoseconds) / 1e15)
                }
                print(String(format: "query %@: %d rows, %.2f ms (median of 5)", name, found, times.sorted()[2]))
            }
        }
        let stored = try history?.count() ?? 0
        history = nil  // closing checkpoints the WAL into the file
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let written = Double(rows.count * repeats)
        print(String(format: "history store: %d violations (x %d) in groups of %d: %.2f s, %.0f rows/s, %.2f µs CPU and %.3f WAL pages (%.0f bytes, %d-byte pages) per violation; file %.1f MB (%.0f B per row)",
                     rows.count, repeats, group, seconds, written / seconds, cpu * 1e6 / written,
                     Double(frames) / written, Double(frames * pageSize) / written, pageSize, Double(size) / 1e6, Double(size) / Double(max(1, stored))))
        XCTAssertEqual(stored, repeats * Set(rows.map { "\($0.idHigh)-\($0.idLow)" }).count, "every distinct id stored once")
    }

    /// CPU time of this thread (SQLite works on the caller's thread).
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
