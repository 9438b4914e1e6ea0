import ByteBasics
import Foundation
import HistoryStore
import ModalwatchTesting
import XCTest

@testable import DaemonCore

/// The integers of the spool's spill file (`SpoolFileFormat`) bounded where the file is read
/// back: a frame's length, a record's lengths, a record's `ts` and `observed`. Each value at an
/// edge costs the record it is in (counted, logged with the file and the field), never the
/// process nor the records after it.
final class SpoolFileBoundsTests: XCTestCase {
    private var folder = ""
    private var spill: String { folder + "/spool.bin" }

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "spool-bounds").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// One violation record of an `OutboundBatch` (native byte order, as the batch lays it out),
    /// id `n`, with these times.
    private func record(_ n: Int, ts: Int64 = 1_700_000_000_000, observed: Int64 = 1_700_000_000_000) -> [UInt8] {
        var bytes: [UInt8] = [OutboundBatch.violationKind]
        func blob(_ text: String) {
            let utf8 = Array(text.utf8)
            withUnsafeBytes(of: UInt32(utf8.count)) { bytes += $0 }
            bytes += utf8
        }
        func integer(_ value: UInt64) { withUnsafeBytes(of: value) { bytes += $0 } }
        blob("violation/com.a/alert-frequency")
        blob(#"{"v":1,"n":\#(n)}"#)
        integer(0)
        integer(UInt64(n))
        integer(UInt64(n))
        integer(UInt64(bitPattern: ts))
        integer(UInt64(bitPattern: observed))
        blob("warning")
        blob("com.a")
        blob("S")
        blob("alert-frequency")
        return bytes
    }

    /// A framed spill file of `frames` (each already framed, or raw bytes).
    private func writeSpill(_ frames: [[UInt8]]) throws {
        try Data(SpoolFileFormat.header + frames.flatMap { $0 }).write(to: URL(fileURLWithPath: spill))
    }

    /// The frame of `record` as the spool writes it.
    private func frame(_ record: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        record.withUnsafeBytes { SpoolFileFormat.appendFrame(of: $0, to: &out) }
        return out
    }

    /// A frame header with `length` and the checksum of `record`, then `record`.
    private func frame(length: UInt32, record: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        let checksum = record.withUnsafeBytes { CRC32.checksum($0) }
        for value in [SpoolFileFormat.frameMarker, length, checksum] {
            withUnsafeBytes(of: value.littleEndian) { out += $0 }
        }
        return out + record
    }

    /// Takes the spill file over and writes it back: the ids stored, in order.
    private func writtenBack(_ spool: ViolationSpool) throws -> [Int] {
        let history = try ViolationHistory(path: folder + "/history.sqlite")
        var rounds = 0
        while !spool.isEmpty && rounds < 100 {
            _ = try spool.writeOldest(to: history, maxBytes: 1 << 20)
            rounds += 1
        }
        XCTAssertTrue(spool.isEmpty)
        return try history.find(HistoryQuery(limit: 1000)).reversed().map { Int($0.id, radix: 16)! }
    }

    /// Times outside `EventTime` (year 0–9999 in ms) in a record with a sound frame and checksum:
    /// each such record is counted and skipped, in one line naming the file and the field; the
    /// edges inside are stored. Before the bound, every one of them went into the history.
    func testRecordTimesAtEveryEdgeAreBoundedWhenTheFileIsReadBack() throws {
        let inside: [Int64] = [0, 1 << 31, 1 << 32, EventTime.maxMs]
        let outside: [Int64] = [-1, .min, EventTime.maxMs + 1, 1 << 53, .max]
        var frames: [[UInt8]] = []
        var expected: [Int] = []
        var n = 0
        for ts in inside + outside {
            frames.append(frame(record(n, ts: ts)))
            if inside.contains(ts) { expected.append(n) }
            n += 1
        }
        for observed in inside + outside {
            frames.append(frame(record(n, observed: observed)))
            if inside.contains(observed) { expected.append(n) }
            n += 1
        }
        try writeSpill(frames)
        let log = RecordedLog()
        let spool = ViolationSpool(memoryLimit: 0, fileLimit: 1 << 20, spillPath: spill, logger: log.logger)
        XCTAssertEqual(spool.count, expected.count, "the records inside the bounds are taken over")
        XCTAssertEqual(spool.damagedRecords, 2 * outside.count)
        // Five lines one by one (the ts ones, first in the file), the other five summed up in one.
        let lines = log.errors.filter { $0.contains("a damaged record") }
        XCTAssertEqual(lines.count, 5, "\(log.all)")
        XCTAssertTrue(lines.allSatisfy { $0.contains("field=ts") && $0.contains("path=\(spill)") }, "\(lines)")
        XCTAssertEqual(
            log.errors.filter { $0.contains("more damaged records") && $0.contains("not_logged_one_by_one=5") }.count,
            1,
            "\(log.all)"
        )
        XCTAssertTrue(lines.contains { $0.contains("ts 9223372036854775807 is outside") }, "\(lines)")
        XCTAssertEqual(try writtenBack(spool), expected)
        XCTAssertEqual(spool.damagedRecords, 2 * outside.count, "counted once")
    }

    /// A frame's length field at every edge (0, 1, 2^31, UInt32.max, one past `maxRecordBytes`,
    /// and `maxRecordBytes` itself running past the file's end): each frame is counted and
    /// skipped, reading resynchronises on the next frame, and the records around are kept.
    func testFrameLengthsAtEveryEdgeCostOnlyTheirFrame() throws {
        let lengths: [UInt32] = [
            0, 1, 1 << 31, .max, UInt32(SpoolFileFormat.maxRecordBytes) + 1, UInt32(SpoolFileFormat.maxRecordBytes),
        ]
        var frames: [[UInt8]] = [frame(record(0))]
        for (index, length) in lengths.enumerated() {
            frames.append(frame(length: length, record: record(100 + index)))
            frames.append(frame(record(index + 1)))
        }
        // Last, a frame whose length runs past the file's end: a torn tail, cut off.
        frames.append(frame(length: UInt32(SpoolFileFormat.maxRecordBytes), record: record(99)))
        try writeSpill(frames)
        let log = RecordedLog()
        let spool = ViolationSpool(memoryLimit: 0, fileLimit: 1 << 20, spillPath: spill, logger: log.logger)
        XCTAssertEqual(spool.count, lengths.count + 1)
        XCTAssertEqual(spool.damagedRecords, lengths.count + 1)
        XCTAssertEqual(try writtenBack(spool), Array(0...lengths.count))
    }

    /// A record whose own lengths (of its topic, its JSON, its texts) run past its frame, in a
    /// frame whose length and checksum are sound: counted and skipped.
    func testARecordsLengthsAtEveryEdgeCostOnlyThatRecord() throws {
        var frames: [[UInt8]] = [frame(record(0))]
        var n = 1
        for length: UInt32 in [1 << 31, 1 << 31 - 1, .max, .max - 3] {
            var bad = record(100 + n)
            withUnsafeBytes(of: length) { bad.replaceSubrange(1..<5, with: $0) }  // the topic's length
            frames.append(frame(bad))
            var last = record(200 + n)
            let at = last.count - 4 - Array("alert-frequency".utf8).count  // the rule's length
            withUnsafeBytes(of: length) { last.replaceSubrange(at..<at + 4, with: $0) }
            frames.append(frame(last))
            frames.append(frame(record(n)))
            n += 1
        }
        try writeSpill(frames)
        let spool = ViolationSpool(memoryLimit: 0, fileLimit: 1 << 20, spillPath: spill, logger: RecordedLog().logger)
        XCTAssertEqual(spool.count, n)
        XCTAssertEqual(spool.damagedRecords, 2 * (n - 1))
        XCTAssertEqual(try writtenBack(spool), Array(0..<n))
    }

    /// The unframed file of an older release: a whole record whose times are outside `EventTime`
    /// is counted and skipped, in a line naming the field; the records after it are converted.
    func testAnUnframedFilesRecordWithTimesOutOfBoundsIsCountedAndSkipped() throws {
        let records = [
            record(0), record(1), record(2, ts: .max), record(3), record(4, observed: -1), record(5, ts: .min),
            record(6),
        ]
        try Data(records.flatMap { $0 }).write(to: URL(fileURLWithPath: spill))
        let log = RecordedLog()
        let spool = ViolationSpool(memoryLimit: 0, fileLimit: 1 << 20, spillPath: spill, logger: log.logger)
        XCTAssertEqual(spool.count, 4)
        XCTAssertEqual(spool.damagedRecords, 3)
        let lines = log.errors.filter { $0.contains("damaged record") }
        XCTAssertEqual(lines.filter { $0.contains("field=ts") }.count, 2, "\(log.all)")
        XCTAssertEqual(lines.filter { $0.contains("field=observed") }.count, 1, "\(log.all)")
        XCTAssertEqual(try writtenBack(spool), [0, 1, 3, 6])
        XCTAssertEqual(spool.damagedRecords, 3, "counted once")
    }
}
