@testable import DaemonCore
import XCTest

/// The counters `status` and the metrics share: every plain counter has one Prometheus name and
/// carries its own value there.
final class DaemonCountersTests: XCTestCase {
    func testEveryCounterIsOneMetricWithItsOwnValue() throws {
        var counters = DaemonCounters()
        for (index, entry) in DaemonCounters.prometheus.enumerated() {
            let path = try XCTUnwrap(entry.value as? WritableKeyPath<DaemonCounters, UInt64>, entry.name)
            counters[keyPath: path] = UInt64(index + 1) * 7
        }
        let plain = Mirror(reflecting: counters).children.filter { $0.value is UInt64 }
        XCTAssertEqual(plain.count, DaemonCounters.prometheus.count, "a counter without a metric, or a metric without a counter")
        XCTAssertEqual(Set(plain.map { $0.value as! UInt64 }).count, plain.count, "each counter set once, through its own metric")
        let totals = counters.prometheusTotals
        XCTAssertEqual(Set(totals.map(\.name)).count, totals.count)
        for (index, entry) in DaemonCounters.prometheus.enumerated() {
            XCTAssertEqual(totals.first { $0.name == entry.name }?.value, UInt64(index + 1) * 7, entry.name)
        }
    }

    func testRejectionsAndRateLimitsAreMetricsWithTheirDimension() {
        var counters = DaemonCounters()
        counters.rejectedByReason = ["bad_json": 3]
        counters.violationsRateLimitedByRule = ["alert-frequency": 5]
        let totals = counters.prometheusTotals
        let rejected = totals.first { $0.name == "modalwatch_events_rejected_total" }
        XCTAssertEqual(rejected?.value, 3)
        XCTAssertEqual(rejected?.dimensions.first?.1, "bad_json")
        let limited = totals.first { $0.name == "modalwatch_violations_rate_limited_total" }
        XCTAssertEqual(limited?.value, 5)
        XCTAssertEqual(limited?.dimensions.first?.0, "rule")
        counters.languagesSkipped = ["alert-pronoun": ["de": 2, "und": 1]]
        let skips = counters.prometheusTotals.filter { $0.name == "modalwatch_language_skips_total" }
        XCTAssertEqual(skips.map(\.value).sorted(), [1, 2])
        XCTAssertEqual(Set(skips.map { $0.dimensions.map(\.0) }), [["rule", "language"]])
    }

    func testEveryCounterHasItsHelpSentence() {
        let names = DaemonCounters.prometheus.map(\.name)
            + ["modalwatch_violations_total", "modalwatch_violations_rate_limited_total", "modalwatch_events_rejected_total"]
        for name in names {
            let help = MetricFamilies.help[name]
            XCTAssertNotNil(help, name)
            XCTAssertEqual(help?.last, ".", name)
        }
    }
}
