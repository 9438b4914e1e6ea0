import Foundation
import Glibc
import HistoryStore

/// The history store on its own, as the publishing thread writes it: the stress stream's
/// violations (what `modalwatch check --format json` prints for it, so the real rows) written
/// into a fresh history in commits of `groupSizes` violations, every column bound from bytes.
/// For each size: the writing thread's CPU and the wall time per violation, and the WAL pages
/// each violation costs (the WAL checkpointed between commits outside the timing, as the
/// daemon's checkpointer thread does). Then the history of the largest commits is filled up to
/// `queryRows` violations (the same ones again, ids, `ts` and `observed` shifted each round, not
/// timed), its WAL checkpointed, and the queries `violations` and `session ID` make are timed on
/// it through a read-only connection, as the daemon's control thread and the CLI read it.
struct StoreBenchmark {
    /// The `modalwatch` CLI that judges the stream.
    let cli: String
    /// The stress stream, as NDJSON.
    let stream: [UInt8]
    /// Where the histories go.
    let folder: String
    /// Violations per commit, one history each.
    let groupSizes: [Int]
    /// At most this many violations are written at commits smaller than 100 (they are slow).
    let smallCommitLimit = 20_000
    /// Violations in the history the queries are timed on.
    var queryRows = 1_000_000
    /// The violations to write, one JSON object a line, instead of `modalwatch check`'s of the stream
    /// (so that the run needs no child process: under callgrind, for one).
    var violationsFile: String?

    /// One commit size's figures.
    struct Commits {
        var groupSize: Int
        var violations: Int
        var cpuMicrosecondsPerViolation: Double
        var violationsPerSecond: Double
        var walPagesPerViolation: Double
        var walBytesPerViolation: Double
    }

    /// A query's median time over five runs, and the rows it found.
    struct Query {
        var name: String
        var milliseconds: Double
        var rows: Int

        /// The name as a key of the results file: its letters and digits, words joined by `_`.
        var key: String {
            name.filter { $0.isLetter || $0.isNumber || $0 == " " }.replacingOccurrences(of: " ", with: "_")
        }
    }

    struct Result {
        var commits: [Commits]
        var queries: [Query]
        /// The retention cutting the filled history to half, a slice a call: the longest call.
        var retention: Retention?
        var historyRows: Int
    }

    /// A violation's columns, as the daemon's hand-over batch has them: ranges into one buffer.
    private struct Columns {
        var idHigh: UInt64, idLow: UInt64, fingerprint: UInt64, ts: Int64, observed: Int64
        var json: Range<Int>, rule: Range<Int>, app: Range<Int>, session: Range<Int>, severity: Range<Int>
    }

    func run(registry: ChildRegistry) throws -> Result {
        let output: String
        if let violationsFile {
            output = try String(contentsOfFile: violationsFile, encoding: .utf8)
        } else {
            let streamPath = folder + "/store-stream.ndjson"
            guard FileManager.default.createFile(atPath: streamPath, contents: Data(stream)) else {
                throw BenchError("cannot write \(streamPath)")
            }
            output = try HelperCommand(
                arguments: [cli, "check", streamPath, "--format", "json"],
                directory: folder,
                successes: [0, 1]
            )
            .run(registry: registry, log: folder + "/store-check.log")
            try? FileManager.default.removeItem(atPath: streamPath)
        }
        var bytes: [UInt8] = []
        let rows = try Self.columns(of: output, into: &bytes)
        guard !rows.isEmpty else { throw BenchError("modalwatch check found no violation in the stream") }

        var commits: [Commits] = []
        var queries: [Query] = []
        var retention: Retention?
        var historyRows = 0
        for (index, group) in groupSizes.enumerated() {
            let path = folder + "/store-\(group)/" + ViolationHistory.fileName
            try FileManager.default.createDirectory(
                atPath: folder + "/store-\(group)",
                withIntermediateDirectories: true
            )
            let history = try ViolationHistory(path: path, checkpointsElsewhere: true)
            let counter = try WALFrameCounter(path: path)
            let pageSize = try counter.pageSize()
            let count = group < 100 ? min(rows.count, smallCommitLimit) : rows.count
            var frames = 0
            var cpu = 0.0
            var wall = 0.0
            try bytes.withUnsafeBytes { all in
                func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
                    UnsafeRawBufferPointer(rebasing: all[range])
                }
                var next = 0
                while next < count {
                    let end = min(next + group, count)
                    let wallStart = MonotonicClock.nanoseconds()
                    let cpuStart = Self.threadCPUSeconds()
                    try history.write { writer in
                        for c in rows[next..<end] {
                            try writer.insert(
                                idHigh: c.idHigh,
                                idLow: c.idLow,
                                fingerprint: c.fingerprint,
                                rule: slice(c.rule),
                                app: slice(c.app),
                                session: slice(c.session),
                                severity: slice(c.severity),
                                ts: c.ts,
                                observed: c.observed,
                                json: slice(c.json)
                            )
                        }
                    }
                    cpu += Self.threadCPUSeconds() - cpuStart
                    wall += MonotonicClock.seconds(from: wallStart, to: MonotonicClock.nanoseconds())
                    frames += try counter.framesSinceLastCall()
                    next = end
                }
            }
            let written = Double(count)
            commits.append(
                Commits(
                    groupSize: group,
                    violations: count,
                    cpuMicrosecondsPerViolation: cpu * 1e6 / written,
                    violationsPerSecond: written / max(wall, 1e-9),
                    walPagesPerViolation: Double(frames) / written,
                    walBytesPerViolation: Double(frames * pageSize) / written
                )
            )
            if index == groupSizes.indices.last {
                try Self.fill(history, to: queryRows, rows: rows, count: count, group: group, bytes: bytes)
                // As in the daemon: its checkpointer keeps the WAL short, and queries go through a
                // read-only connection (the control thread's, the CLI's).
                try history.checkpointTruncating()
                let reader = try ViolationHistory(path: path, readOnly: true)
                historyRows = try reader.count()
                queries = try Self.timeQueries(reader, sample: rows[count - 1], bytes: bytes)
                retention = try Self.timeRetention(history, rows: historyRows)
            }
        }
        return Result(commits: commits, queries: queries, retention: retention, historyRows: historyRows)
    }

    /// Writes `rows[..<count]` again, round after round (ids, `ts` and `observed` shifted so that
    /// each round follows the last), in commits of `group`, until `history` holds `target`.
    private static func fill(
        _ history: ViolationHistory,
        to target: Int,
        rows: [Columns],
        count: Int,
        group: Int,
        bytes: [UInt8]
    ) throws {
        guard count > 0 else { return }
        let span = max(1, rows[..<count].map(\.observed).max()! - rows[..<count].map(\.observed).min()! + 1)
        var stored = try history.count()
        var round: Int64 = 1
        try bytes.withUnsafeBytes { all in
            func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: all[range]) }
            while stored < target {
                var next = 0
                while next < count, stored < target {
                    let end = min(next + group, count, next + target - stored)
                    stored += try history.write { writer in
                        for c in rows[next..<end] {
                            try writer.insert(
                                idHigh: c.idHigh ^ UInt64(round),
                                idLow: c.idLow,
                                fingerprint: c.fingerprint,
                                rule: slice(c.rule),
                                app: slice(c.app),
                                session: slice(c.session),
                                severity: slice(c.severity),
                                ts: c.ts + round * 1_000_000_000,
                                observed: c.observed + round * span,
                                json: slice(c.json)
                            )
                        }
                    }
                    next = end
                }
                round += 1
            }
        }
    }

    /// The queries of `violations` (newest, by rule, by app, since) and `session ID`, each the
    /// median of five, on `history`.
    private static func timeQueries(_ history: ViolationHistory, sample: Columns, bytes: [UInt8]) throws -> [Query] {
        let text = { (range: Range<Int>) in String(decoding: bytes[range], as: UTF8.self) }
        let newest = try history.find(HistoryQuery(limit: 1)).first?.observed ?? sample.observed
        let asked: [(String, HistoryQuery)] = [
            ("newest 100", HistoryQuery(limit: 100)),
            ("newest 100 of a rule", HistoryQuery(rule: text(sample.rule), limit: 100)),
            ("newest 100 of an app", HistoryQuery(app: text(sample.app), limit: 100)),
            (
                "a session's (session ID), 50",
                HistoryQuery(app: text(sample.app), session: text(sample.session), limit: 50)
            ),
            ("newest 50 of a session", HistoryQuery(session: text(sample.session), limit: 50)),
            ("since a minute before the newest, 100", HistoryQuery(sinceObserved: newest - 60_000, limit: 100)),
            ("a rule with no rows", HistoryQuery(rule: "no-such-rule", limit: 100)),
        ]
        return try asked.map { name, query in
            var times: [Double] = []
            var found = 0
            for _ in 0..<5 {
                let start = MonotonicClock.nanoseconds()
                found = try history.find(query).count
                times.append(MonotonicClock.seconds(from: start, to: MonotonicClock.nanoseconds()) * 1e3)
            }
            return Query(name: name, milliseconds: times.sorted()[2], rows: found)
        }
    }

    /// The retention cutting the history to half its rows (`max_rows`), a slice a call as the
    /// publishing thread runs it, the WAL checkpointed between calls: the longest call, the
    /// writer held for it (ms), and the rows deleted.
    private static func timeRetention(_ history: ViolationHistory, rows: Int) throws -> Retention {
        var times: [Double] = []
        var deleted = 0
        while true {
            let start = MonotonicClock.nanoseconds()
            let slice = try history.prune(now: 0, maxAgeMs: nil, maxRows: rows / 2)
            times.append(MonotonicClock.seconds(from: start, to: MonotonicClock.nanoseconds()) * 1e3)
            deleted += slice
            if slice < history.pruneSlice { break }
            // As in the daemon, whose checkpointer keeps the WAL short meanwhile (not timed).
            try history.checkpointTruncating()
        }
        times.sort()
        return Retention(
            longestMilliseconds: times.last ?? 0,
            medianMilliseconds: times[times.count / 2],
            slices: times.count,
            deleted: deleted
        )
    }

    /// The retention's slices: the longest and the median call (ms), how many, the rows deleted.
    struct Retention {
        var longestMilliseconds: Double, medianMilliseconds: Double, slices: Int, deleted: Int
    }

    /// The daemon's clock as the rows are stamped with `observed`.
    static let violationsPerMillisecond = 25

    /// Each line of `check --format json`'s output as columns, its text copied into `bytes`.
    private static func columns(of output: String, into bytes: inout [UInt8]) throws -> [Columns] {
        func append(_ text: String) -> Range<Int> {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            return start..<bytes.count
        }
        var rows: [Columns] = []
        for line in output.split(separator: "\n") where line.hasPrefix("{") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let id = object["id"] as? String, id.utf8.count == 32,
                let idHigh = UInt64(id.prefix(16), radix: 16), let idLow = UInt64(id.suffix(16), radix: 16),
                let fingerprintText = object["fingerprint"] as? String,
                let fingerprint = UInt64(fingerprintText, radix: 16),
                let ts = (object["ts"] as? NSNumber)?.int64Value,
                let observed = (object["observed"] as? NSNumber)?.int64Value,
                let rule = object["rule"] as? String, let app = object["app"] as? String,
                let session = object["session"] as? String, let severity = object["severity"] as? String
            else { throw BenchError("modalwatch check printed a line that is not a violation: \(line.prefix(120))") }
            // `check` finds them all at one clock reading; the daemon stamps each when it finds it,
            // in arrival order: 25 violations a millisecond (the stress stream's rate at 100 k events/s).
            let found = observed + Int64(rows.count / Self.violationsPerMillisecond)
            rows.append(
                Columns(
                    idHigh: idHigh,
                    idLow: idLow,
                    fingerprint: fingerprint,
                    ts: ts,
                    observed: found,
                    json: append(String(line)),
                    rule: append(rule),
                    app: append(app),
                    session: append(session),
                    severity: append(severity)
                )
            )
        }
        return rows
    }

    /// CPU time of this thread (SQLite works on the caller's thread).
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
