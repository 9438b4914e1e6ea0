import Foundation
import Glibc
import ModalwatchTesting
import RuleHost
import XCTest

@testable import DaemonCore

/// The rule-call marker an earlier run left (`rule-call.marker`, `RuleCallMarkerFile`) read back
/// at the start with each integer bounded: a marker outside what the daemon writes is refused in
/// one line naming the file and the field, set aside, and quarantines nothing; a sound one still
/// quarantines its rule, read in bounded memory whatever the file's size.
final class RuleCallMarkerFileTests: XCTestCase {
    private var folder = ""
    private let catalog = BuiltinCatalog.load()

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "marker").path
        try XCTSkipIf(catalog.rules.isEmpty, "no built-in rules")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The fields of a marker's record (`mw_marker`), a crash in the first rule by default.
    private struct Fields {
        var magic: UInt32 = 0x4B4D_574D
        var version: UInt32 = 1
        var state: UInt32 = 2
        var signal: Int32 = SIGSEGV
        var rule: UInt32 = 0
        var ruleCount: UInt32?
        var eventTs: Int64 = 1_700_000_000_000
        var eventType: UInt32 = 1
        var sessionLength: UInt32 = 3
    }

    /// A marker file's bytes as `rule_guard.h` lays it out: the record at its offsets, then a
    /// name slot per rule of the catalog.
    private func marker(_ fields: Fields) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 512 + catalog.rules.count * 128)
        func put<Value: FixedWidthInteger>(_ value: Value, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + $0.count, with: $0) }
        }
        put(fields.magic, at: 0)
        put(fields.version, at: 4)
        put(fields.state, at: 8)
        put(fields.signal, at: 12)
        put(fields.rule, at: 16)
        put(fields.ruleCount ?? UInt32(catalog.rules.count), at: 20)
        put(UInt64(7), at: 24)
        put(fields.eventTs, at: 32)
        put(fields.eventType, at: 40)
        put(fields.sessionLength, at: 44)
        bytes.replaceSubrange(48..<51, with: Array("S-1".utf8))
        for (index, rule) in catalog.rules.enumerated() {
            let slot = 512 + index * 128
            let module = Array(rule.module.utf8.prefix(39))
            bytes.replaceSubrange(slot..<slot + module.count, with: module)
            let id = Array(rule.id.utf8.prefix(87))
            bytes.replaceSubrange(slot + 40..<slot + 40 + id.count, with: id)
        }
        return bytes
    }

    /// A state directory of its own under the test's folder, holding `bytes` as the marker.
    private func directory(_ name: String, marker bytes: [UInt8]) throws -> String {
        let directory = folder + "/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/rule-call.marker"))
        return directory
    }

    /// The fault guard of a start in `directory`, logging into `log`.
    private func guardian(_ directory: String, _ log: RecordedLog) -> RuleFaultGuard {
        RuleFaultGuard(
            directory: directory,
            catalog: catalog,
            quarantineEnabled: true,
            clock: DaemonClock(),
            logger: log.logger
        )
    }

    /// The names in `directory` that start with `prefix`.
    private func names(in directory: String, prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix(prefix) }
    }

    func testASoundCrashMarkerQuarantinesItsRule() throws {
        let directory = try directory("sound", marker: marker(Fields()))
        let log = RecordedLog()
        let quarantined = guardian(directory, log).quarantined
        XCTAssertEqual(Array(quarantined.keys), [catalog.rules[0].id], "\(log.all)")
        XCTAssertEqual(quarantined.first?.value.fault, "crashed (SIGSEGV)")
        XCTAssertEqual(
            quarantined.first?.value.event.hasSuffix("at ts 1700000000000 of session S-1"),
            true,
            "\(quarantined)"
        )
    }

    /// Every field of the record at its edges: each marker is refused in one line naming the
    /// file and the field, set aside, and quarantines nothing; the new run's marker is mapped.
    /// Before the bound some were read silently as no fault and others quarantined the rule
    /// with a signal or session no run writes.
    func testHostileIntegersInTheMarkerAreRefusedByNameAndQuarantineNothing() throws {
        let count = UInt32(catalog.rules.count)
        var cases: [(label: String, bytes: [UInt8], field: String)] = [
            ("short", Array(marker(Fields()).prefix(100)), "size"),
            ("short511", Array(marker(Fields()).prefix(511)), "size"),
        ]
        func add(_ label: String, _ field: String, _ change: (inout Fields) -> Void) {
            var fields = Fields()
            change(&fields)
            cases.append((label, marker(fields), field))
        }
        for value: UInt32 in [0, 1, 0x4B4D_574E, .max] { add("magic\(value)", "magic") { $0.magic = value } }
        for value: UInt32 in [0, 2, 1 << 31, .max] { add("version\(value)", "version") { $0.version = value } }
        for value: UInt32 in [4, 1 << 31, 1 << 31 + 1, .max] { add("state\(value)", "state") { $0.state = value } }
        for value: Int32 in [0, -1, 65, .min, .max] { add("signal\(value)", "signal") { $0.signal = value } }
        add("rule-count", "rule") { $0.rule = count }
        add("rule-max", "rule") {
            $0.rule = .max
            $0.ruleCount = .max
        }
        add("rule-2^31", "rule") {
            $0.rule = 1 << 31
            $0.ruleCount = .max
        }
        add("rule-past-end", "rule") {
            $0.rule = count
            $0.ruleCount = count + 1
        }
        add("count-zero", "rule") { $0.ruleCount = 0 }
        for value: UInt32 in [129, 1 << 31, .max] { add("session\(value)", "session_len") { $0.sessionLength = value } }
        add("hung-rule-max", "rule") {
            $0.state = 3
            $0.rule = .max
        }
        for (label, bytes, field) in cases {
            let directory = try directory(label, marker: bytes)
            let log = RecordedLog()
            let guardian = guardian(directory, log)
            XCTAssertEqual(guardian.quarantined, [:], "\(label): \(log.all)")
            let lines = log.errors.filter { $0.contains("rule-call marker was refused") }
            XCTAssertEqual(lines.count, 1, "\(label): \(log.all)")
            XCTAssertTrue(lines.first?.contains("field=\(field) ") == true, "\(label): \(lines)")
            XCTAssertTrue(lines.first?.contains("path=\(directory)/rule-call.marker") == true, "\(label): \(lines)")
            let aside = names(in: directory, prefix: "rule-call.marker.refused-")
            XCTAssertEqual(aside.count, 1, "\(label): set aside")
            if let name = aside.first {
                XCTAssertEqual(
                    FileManager.default.contents(atPath: directory + "/" + name).map { [UInt8]($0) },
                    bytes,
                    "\(label): kept as it was"
                )
            }
            var info = stat()
            XCTAssertEqual(stat(directory + "/rule-call.marker", &info), 0, "\(label): the new run's marker")
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
        }
    }

    /// A sound crash marker whose file goes on, as a hole, to 1 TiB: the record and the rule's
    /// name are read, nothing more (before, the whole file was read into memory).
    func testAMarkerFollowedByATebibyteIsReadInBoundedMemory() throws {
        let directory = try directory("large", marker: marker(Fields()))
        XCTAssertEqual(truncate(directory + "/rule-call.marker", 1 << 40), 0)
        var before = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        let log = RecordedLog()
        let quarantined = guardian(directory, log).quarantined
        var after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &after)
        XCTAssertEqual(Array(quarantined.keys), [catalog.rules[0].id], "\(log.all)")
        XCTAssertLessThan(after.ru_maxrss - before.ru_maxrss, 64 << 10, "peak memory grew by less than 64 MiB (KiB)")
    }

    /// A FIFO where the marker should be is refused (field `file`), not waited on, and set aside.
    func testAMarkerThatIsNotARegularFileIsRefusedNotWaitedOn() throws {
        let directory = folder + "/fifo"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        XCTAssertEqual(mkfifo(directory + "/rule-call.marker", 0o600), 0)
        let log = RecordedLog()
        XCTAssertEqual(guardian(directory, log).quarantined, [:])
        let lines = log.errors.filter { $0.contains("rule-call marker was refused") && $0.contains("field=file ") }
        XCTAssertEqual(lines.count, 1, "\(log.all)")
        XCTAssertEqual(names(in: directory, prefix: "rule-call.marker.refused-").count, 1)
    }

    /// An empty marker (a run that ended before it wrote one) and an idle one say nothing.
    func testAnEmptyOrIdleMarkerIsNoFaultAndLogsNothing() throws {
        var idle = Fields()
        idle.state = 0
        idle.rule = .max
        for (label, bytes) in [("empty", [UInt8]()), ("idle", marker(idle))] {
            let directory = try directory(label, marker: bytes)
            let log = RecordedLog()
            XCTAssertEqual(guardian(directory, log).quarantined, [:], label)
            XCTAssertEqual(log.errors, [], label)
            XCTAssertEqual(names(in: directory, prefix: "rule-call.marker.refused-"), [], label)
        }
    }

    /// The reader by itself: what a sound marker names, and the refusal's field and value.
    func testTheReaderNamesTheFieldAndTheValueItRefuses() throws {
        var fields = Fields()
        fields.rule = .max
        fields.ruleCount = .max
        let directory = try directory("reader", marker: marker(fields))
        XCTAssertThrowsError(try RuleCallMarkerFile.read(directory + "/rule-call.marker")) { error in
            let refusal = error as? StateFileRefusal
            XCTAssertEqual(refusal?.field, "rule")
            XCTAssertEqual(refusal?.path, directory + "/rule-call.marker")
            XCTAssertTrue(refusal?.why.contains("4294967295") == true, "\(String(describing: refusal))")
        }
        XCTAssertEqual(try RuleCallMarkerFile.read(folder + "/none"), .absent)
    }
}
