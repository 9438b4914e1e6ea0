import Report
import RuleHost
import XCTest

final class HTMLReportTests: XCTestCase {
    private func source(_ kind: ReportSource.Kind) -> ReportSource {
        ReportSource(kind: kind, names: ["x"], generated: 1_732_290_000_000)
    }

    func testAnEmptyHistorySaysThereIsNothingYet() {
        let html = HTMLReport(model: ReportModel(rules: []), source: source(.history)).render()
        XCTAssertTrue(html.contains("data-empty=\"true\""))
        XCTAssertTrue(html.contains("Nothing yet"))
        XCTAssertFalse(html.contains("data-chart="))
    }

    func testEveryChartIsAnAccessibleImageAndTextIsEscaped() {
        let model = ReportModel(rules: [
            ReportRule(id: "r-1", module: "m", severity: .error, guideline: "G <b>", summary: "S")
        ])
        model.add(
            ReportViolation(
                rule: "r-1",
                severity: .error,
                app: "<script>alert(1)</script>",
                session: "s",
                ts: 1_732_290_000_000,
                subject: nil
            )
        )
        let html = HTMLReport(model: model, source: source(.history)).render()
        XCTAssertFalse(html.contains("<script>"), "no script, and no text taken as markup")
        XCTAssertTrue(html.contains("&lt;script&gt;"))
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "nothing from the network")
        let charts = html.components(separatedBy: "<svg data-chart=").dropFirst()
        XCTAssertFalse(charts.isEmpty)
        for chart in charts {
            let id = String(chart.dropFirst().prefix { $0 != "\"" })
            XCTAssertTrue(chart.contains("role=\"img\""), id)
            XCTAssertTrue(chart.contains("aria-labelledby=\"\(id)-title \(id)-desc\""), id)
            XCTAssertTrue(chart.contains("<title id=\"\(id)-title\">"), id)
            XCTAssertTrue(chart.contains("<desc id=\"\(id)-desc\">"), id)
        }
        XCTAssertTrue(html.contains("id=\"rule-r-1\""), "the glossary entry the rule links to")
        XCTAssertTrue(html.contains("data-unavailable=\"distributions\""), "a history cannot show depth: it says so")
    }
}
