import Foundation
import HistoryStore
import ModalwatchTesting
import XCTest

@testable import DaemonCore

/// The store-failure spool (violations.md): memory, then a spill file, written back in order;
/// refused past both bounds; a spill file left by a stopped run taken over. A real SQLite file.
final class ViolationSpoolTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "spool").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// One violation record of an `OutboundBatch`, built byte by byte as the batch lays it out.
    private func record(_ n: Int) -> [UInt8] {
        var bytes: [UInt8] = [OutboundBatch.violationKind]
        func blob(_ text: String) {
            let utf8 = Array(text.utf8)
            withUnsafeBytes(of: UInt32(utf8.count)) { bytes += $0 }
            bytes += utf8
        }
        func integer(_ value: UInt64) { withUnsafeBytes(of: value) { bytes += $0 } }
        blob("violation/com.a/alert-frequency")
        blob(#"{"v":1,"n":\#(n),"pad":"\#(String(repeating: "x", count: 200))"}"#)
        integer(0)
        integer(UInt64(n))
        integer(UInt64(n))
        integer(UInt64(1000 + n))
        integer(UInt64(n))
        blob("warning")
        blob("com.a")
        blob("S")
        blob("alert-frequency")
        return bytes
    }

    private func storedOrder(_ history: ViolationHistory) throws -> [Int] {
        try history.find(HistoryQuery(limit: 1000)).reversed().map { Int($0.id, radix: 16)! }
    }

    func testMemoryThenTheSpillFileThenBackInOrder() throws {
        let size = record(0).count
        let spill = folder + "/spool.bin"
        let spool = ViolationSpool(memoryLimit: 3 * size, fileLimit: 100 * size, spillPath: spill)
        for n in 0..<10 { XCTAssertTrue(record(n).withUnsafeBytes { spool.append($0) }) }
        XCTAssertEqual(spool.count, 10)
        XCTAssertEqual(spool.memoryBytes, 3 * size)
        XCTAssertEqual(spool.fileRecordCount, 7)
        // After something went to the file, a record that would fit in memory goes behind it.
        let history = try ViolationHistory(path: folder + "/history.sqlite")
        var rounds = 0
        while !spool.isEmpty && rounds < 20 {
            _ = try spool.writeOldest(to: history, maxBytes: 2 * size)
            rounds += 1
        }
        XCTAssertTrue(spool.isEmpty)
        XCTAssertEqual(try storedOrder(history), Array(0..<10), "written back in the order spooled")
        XCTAssertGreaterThan(rounds, 3, "in transactions of a bounded size")
        XCTAssertEqual(((try? FileManager.default.attributesOfItem(atPath: spill))?[.size] as? Int) ?? -1, 0)
    }

    func testPastBothBoundsARecordIsRefused() {
        let size = record(0).count
        let spool = ViolationSpool(memoryLimit: 2 * size, fileLimit: 0, spillPath: folder + "/spool.bin")
        let taken = (0..<5).map { n in record(n).withUnsafeBytes { spool.append($0) } }
        XCTAssertEqual(taken, [true, true, false, false, false])
        XCTAssertEqual(spool.count, 2)
    }

    /// A spill file on a full device (`/dev/full`: every write fails with `ENOSPC`): the record
    /// is refused as a whole, what is in memory stays and is written back.
    func testASpillFileThatCannotTakeARecordRefusesIt() throws {
        let size = record(0).count
        let spool = ViolationSpool(memoryLimit: 2 * size, fileLimit: 100 * size, spillPath: "/dev/full")
        let taken = (0..<4).map { n in record(n).withUnsafeBytes { spool.append($0) } }
        XCTAssertEqual(taken, [true, true, false, false])
        XCTAssertEqual(spool.count, 2)
        XCTAssertEqual(spool.fileRecordCount, 0)
        let history = try ViolationHistory(path: folder + "/history.sqlite")
        while !spool.isEmpty { _ = try spool.writeOldest(to: history, maxBytes: 1 << 20) }
        XCTAssertEqual(try storedOrder(history), [0, 1])
    }

    func testASpillFileLeftByAStoppedRunIsTakenOverAndATornTailCounted() throws {
        let size = record(0).count
        let spill = folder + "/spool.bin"
        do {
            let spool = ViolationSpool(memoryLimit: 0, fileLimit: 100 * size, spillPath: spill)
            for n in 0..<4 { XCTAssertTrue(record(n).withUnsafeBytes { spool.append($0) }) }
        }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: spill))
        handle.seekToEndOfFile()
        handle.write(Data(record(99).prefix(size / 2)))  // a record cut short by the end of the process
        handle.closeFile()
        let again = ViolationSpool(memoryLimit: 0, fileLimit: 100 * size, spillPath: spill)
        XCTAssertEqual(again.count, 4)
        XCTAssertEqual(again.damagedRecords, 1, "the torn record is counted, not dropped silently")
        let history = try ViolationHistory(path: folder + "/history.sqlite")
        while !again.isEmpty { _ = try again.writeOldest(to: history, maxBytes: 1 << 20) }
        XCTAssertEqual(try storedOrder(history), [0, 1, 2, 3])
        XCTAssertEqual(again.damagedRecords, 1, "counted once")
    }

    /// A flipped byte in one record, and one in another record's length: those two are counted and
    /// skipped, every other record is written back in order (reading resynchronises on the next frame).
    func testDamagedRecordsAreCountedAndSkippedAndTheRestKept() throws {
        let size = record(0).count
        let spill = folder + "/spool.bin"
        do {
            let spool = ViolationSpool(memoryLimit: 0, fileLimit: 100 * size, spillPath: spill)
            for n in 0..<10 { XCTAssertTrue(record(n).withUnsafeBytes { spool.append($0) }) }
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: spill)))
        let frame = SpoolFileFormat.frameHeaderBytes + size
        bytes[SpoolFileFormat.headerBytes + 2 * frame + 5] ^= 0x40  // record 2's length
        bytes[SpoolFileFormat.headerBytes + 6 * frame + 12 + size / 2] ^= 1  // inside record 6
        try Data(bytes).write(to: URL(fileURLWithPath: spill))
        let again = ViolationSpool(memoryLimit: 0, fileLimit: 100 * size, spillPath: spill)
        XCTAssertEqual(again.count, 8)
        XCTAssertEqual(again.damagedRecords, 2)
        let history = try ViolationHistory(path: folder + "/history.sqlite")
        while !again.isEmpty { _ = try again.writeOldest(to: history, maxBytes: 3 * size) }
        XCTAssertEqual(try storedOrder(history), [0, 1, 3, 4, 5, 7, 8, 9])
        XCTAssertEqual(again.damagedRecords, 2)
    }

    /// The unframed file of an older release is converted; zeros are no records (nothing adopted,
    /// the file set aside and counted).
    func testAnUnframedFileIsConvertedAndZerosAreSetAside() throws {
        let size = record(0).count
        let spill = folder + "/spool.bin"
        try Data((0..<5).flatMap { record($0) }).write(to: URL(fileURLWithPath: spill))
        let converted = ViolationSpool(memoryLimit: 0, fileLimit: 100 * size, spillPath: spill)
        XCTAssertEqual(converted.count, 5)
        let history = try ViolationHistory(path: folder + "/history.sqlite")
        while !converted.isEmpty { _ = try converted.writeOldest(to: history, maxBytes: 1 << 20) }
        XCTAssertEqual(try storedOrder(history), [0, 1, 2, 3, 4])

        try Data(count: 4096).write(to: URL(fileURLWithPath: spill))
        let zeros = ViolationSpool(memoryLimit: 0, fileLimit: 100 * size, spillPath: spill)
        XCTAssertEqual(zeros.count, 0)
        XCTAssertEqual(zeros.damagedRecords, 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertTrue(names.contains { $0.hasPrefix("spool.bin.unframed-") }, "\(names)")
    }

    /// At a stop, what memory holds goes into the file before the file's own (older) records.
    func testPersistingTheMemoryPutsItBeforeTheFile() throws {
        let size = record(0).count
        let spill = folder + "/spool.bin"
        do {
            let spool = ViolationSpool(memoryLimit: 3 * size, fileLimit: 100 * size, spillPath: spill)
            for n in 0..<6 { XCTAssertTrue(record(n).withUnsafeBytes { spool.append($0) }) }
            XCTAssertEqual(spool.fileRecordCount, 3)
            XCTAssertEqual(spool.persistMemory(), 0)
            XCTAssertEqual(spool.fileRecordCount, 6)
        }
        let again = ViolationSpool(memoryLimit: 0, fileLimit: 100 * size, spillPath: spill)
        XCTAssertEqual(again.count, 6)
        let history = try ViolationHistory(path: folder + "/history.sqlite")
        while !again.isEmpty { _ = try again.writeOldest(to: history, maxBytes: 1 << 20) }
        XCTAssertEqual(try storedOrder(history), Array(0..<6))
    }
}
