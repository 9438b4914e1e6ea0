import ControlProtocol
import XCTest

@testable import DaemonCore

/// The counters `status` and the metrics share: every exported status counter has one Prometheus
/// name and carries its own value there.
final class DaemonCountersTests: XCTestCase {
    func testEveryCounterIsOneMetricWithItsOwnValue() {
        var counters = DaemonCounters()
        let exported = StatusCounter.allCases.filter { $0.metricName != nil }
        for (index, counter) in exported.enumerated() { counters.plain[counter] = UInt64(index + 1) * 7 }
        let totals = counters.prometheusTotals
        XCTAssertEqual(Set(totals.map(\.name)).count, totals.count)
        XCTAssertEqual(totals.count, exported.count)
        for (index, counter) in exported.enumerated() {
            XCTAssertEqual(
                totals.first { $0.name == counter.metricName }?.value,
                UInt64(index + 1) * 7,
                counter.rawValue
            )
        }
    }

    func testExportedCountersAreNamedByTheirKey() {
        XCTAssertEqual(StatusCounter.appsEvicted.metricName, "modalwatch_apps_evicted_total")
        XCTAssertNil(StatusCounter.appsKnown.metricName, "a gauge, not a counter family")
        XCTAssertEqual(StatusCounter.allCases.compactMap(\.metricName).count, 26)
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
        let names =
            StatusCounter.allCases.compactMap(\.metricName)
            + [
                "modalwatch_violations_total", "modalwatch_violations_rate_limited_total",
                "modalwatch_events_rejected_total",
            ]
        for name in names {
            let help = MetricFamilies.help[name]
            XCTAssertNotNil(help, name)
            XCTAssertEqual(help?.last, ".", name)
        }
    }
}
