import XCTest

@testable import DaemonCore

/// The ingest thread's counts by rule and severity: every violation counted under its key,
/// names asked for once a key, the table growing without losing a count.
final class ViolationCountsTests: XCTestCase {
    func testCountsEveryKeyAcrossGrowthAndAsksForTheNamesOnceAKey() {
        var counts = ViolationCounts()
        var asked = 0
        // 500 keys (the table starts at 64 slots), key k counted k % 7 + 1 times, interleaved.
        for round in 0..<7 {
            for k in 0..<500 where round <= k % 7 {
                let key = UInt64(k) &* 0x9E37_79B9_7F4A_7C15
                counts.add(key) {
                    asked += 1
                    return ViolationCounts.RuleSeverity(rule: "rule-\(k)", severity: "warning")
                }
            }
        }
        XCTAssertEqual(asked, 500, "the names are made once a key")
        let byRule = counts.byRule
        XCTAssertEqual(byRule.count, 500)
        for k in 0..<500 {
            XCTAssertEqual(
                byRule[ViolationCounts.RuleSeverity(rule: "rule-\(k)", severity: "warning")],
                UInt64(k % 7 + 1)
            )
        }
    }

    func testKeysThatNameTheSamePairAddUp() {
        var counts = ViolationCounts()
        let names = ViolationCounts.RuleSeverity(rule: "r", severity: "error")
        counts.add(1) { names }
        counts.add(2) { names }
        counts.add(2) { names }
        XCTAssertEqual(counts.byRule, [names: 3])
    }
}
