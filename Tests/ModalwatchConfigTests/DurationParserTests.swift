import ModalwatchConfig
import XCTest

final class DurationParserTests: XCTestCase {
    func testUnits() {
        XCTAssertEqual(DurationParser.milliseconds("1000ms"), 1000)
        XCTAssertEqual(DurationParser.milliseconds("600s"), 600_000)
        XCTAssertEqual(DurationParser.milliseconds("15m"), 900_000)
        XCTAssertEqual(DurationParser.milliseconds("15min"), 900_000)
        XCTAssertEqual(DurationParser.milliseconds(" 2 h "), 7_200_000)
        XCTAssertEqual(DurationParser.milliseconds("1d"), 86_400_000)
    }

    func testAnythingElseIsNil() {
        for text in ["", "15", "m", "1.5h", "-1h", "10 parsecs", "99999999999999999999d", "9223372036854775807d"] {
            XCTAssertNil(DurationParser.milliseconds(text), text)
        }
    }
}
