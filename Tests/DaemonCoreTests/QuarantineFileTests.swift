import ByteBasics
import Foundation
import ModalwatchTesting
import RuleHost
import XCTest

@testable import DaemonCore

/// The quarantine an earlier run left (`quarantine.json`, `QuarantineFile`) read back at the
/// start with its integers bounded: an entry whose `since` is outside `EventTime` is refused by
/// itself in one line naming the file and the field; a file no Int64 can read, or past
/// `QuarantineFile.maxBytes`, is refused as a whole, set aside, and quarantines nothing.
final class QuarantineFileTests: XCTestCase {
    private var folder = ""
    private let catalog = BuiltinCatalog.load()
    private var path: String { folder + "/quarantine.json" }

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "quarantine").path
        try XCTSkipIf(catalog.rules.count < 2, "fewer than two built-in rules")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// One entry's JSON, `since` written as it is given (any JSON number).
    private func entry(rule: String, module: String, since: String) -> String {
        #"{"rule":"\#(rule)","module":"\#(module)","fault":"crashed (SIGSEGV)","event":"alert.presented at ts 1 of session S","since":\#(since)}"#
    }

    /// The fault guard of a start in the test's folder, logging into `log`.
    private func guardian(_ log: RecordedLog) -> RuleFaultGuard {
        RuleFaultGuard(
            directory: folder,
            catalog: catalog,
            quarantineEnabled: true,
            clock: DaemonClock(),
            logger: log.logger
        )
    }

    /// The names of the quarantine files set aside in the folder.
    private var setAside: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasPrefix("quarantine.json.refused-")
        }
    }

    /// `since` at every edge, through the reader: inside `EventTime` kept, outside refused by itself.
    func testTheReaderBoundsSinceAtEveryEdge() throws {
        let inside: [Int64] = [0, 1 << 31, 1 << 32, EventTime.maxMs]
        let outside: [Int64] = [-1, .min, EventTime.maxMs + 1, 1 << 53, .max]
        let values = inside + outside
        let text =
            "["
            + values.enumerated().map { entry(rule: "r\($0.offset)", module: "m", since: "\($0.element)") }.joined(
                separator: ","
            ) + "]"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let contents = try XCTUnwrap(try QuarantineFile.read(path))
        XCTAssertEqual(contents.entries.map(\.since), inside)
        XCTAssertEqual(contents.refused.map(\.entry.since), outside)
        XCTAssertEqual(Set(contents.refused.map(\.refusal.field)), ["since"])
        XCTAssertTrue(contents.refused.allSatisfy { $0.refusal.path == path })
        XCTAssertNil(try QuarantineFile.read(folder + "/none"))
    }

    /// Through the fault guard at the start: a rule whose entry has a `since` outside `EventTime`
    /// is not in quarantine, one line says so naming the file, the field and the rule, and the file
    /// is written again without it. Before the bound each such rule was put in quarantine.
    func testAnEntryWhoseSinceIsOutOfBoundsIsRefusedAndTheOthersKept() throws {
        let rules = Array(catalog.rules.prefix(6))
        let sinces: [Int64] = [1_700_000_000_000, .min, .max, -1, EventTime.maxMs + 1, EventTime.maxMs]
        let kept = Set(rules.indices.filter { [0, 5].contains($0) }.map { rules[$0].id })
        let text =
            "["
            + rules.enumerated().map {
                entry(rule: $0.element.id, module: $0.element.module, since: "\(sinces[$0.offset])")
            }.joined(separator: ",") + "]"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let log = RecordedLog()
        let quarantined = guardian(log).quarantined
        XCTAssertEqual(Set(quarantined.keys), kept, "\(log.all)")
        let lines = log.errors.filter { $0.contains("an entry of the quarantine file was refused") }
        XCTAssertEqual(lines.count, rules.count - kept.count, "\(log.all)")
        XCTAssertTrue(lines.allSatisfy { $0.contains("field=since ") && $0.contains("path=\(path)") }, "\(lines)")
        let again = try XCTUnwrap(try QuarantineFile.read(path))
        XCTAssertEqual(again.refused, [], "the file is written again without the refused entries")
        XCTAssertEqual(Set(again.entries.map(\.rule)), kept)
    }

    /// A `since` no Int64 holds (UInt64.max, 2^63, −2^63 − 1, 1e300, a fraction): the file is
    /// refused as a whole (field `json`) in one line, set aside, and quarantines nothing.
    func testASinceNoInt64HoldsRefusesTheFileAndSetsItAside() throws {
        let rule = catalog.rules[0]
        for since in ["18446744073709551615", "9223372036854775808", "-9223372036854775809", "1e300", "1.5"] {
            try Data(("[" + entry(rule: rule.id, module: rule.module, since: since) + "]").utf8).write(
                to: URL(fileURLWithPath: path)
            )
            let log = RecordedLog()
            XCTAssertEqual(guardian(log).quarantined, [:], since)
            let lines = log.errors.filter { $0.contains("the quarantine file was refused") }
            XCTAssertEqual(lines.count, 1, "\(since): \(log.all)")
            XCTAssertTrue(
                lines.first?.contains("field=json ") == true && lines.first?.contains("path=\(path)") == true,
                "\(lines)"
            )
            XCTAssertEqual(setAside.count, 1, since)
            for name in setAside { try FileManager.default.removeItem(atPath: folder + "/" + name) }
        }
    }

    /// A file past `QuarantineFile.maxBytes` (a sound entry, then blanks) is refused by its size
    /// after reading the bound and a byte, set aside, and quarantines nothing.
    func testAFileOverItsBoundIsRefusedBySize() throws {
        let rule = catalog.rules[0]
        let text =
            "[" + entry(rule: rule.id, module: rule.module, since: "1700000000000") + "]"
            + String(repeating: " ", count: QuarantineFile.maxBytes)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let log = RecordedLog()
        XCTAssertEqual(guardian(log).quarantined, [:], "\(log.all)")
        let lines = log.errors.filter { $0.contains("the quarantine file was refused") && $0.contains("field=size ") }
        XCTAssertEqual(lines.count, 1, "\(log.all)")
        XCTAssertEqual(setAside.count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
}
