import ByteBasics
import ModalwatchClient
import XCTest

/// The client's enumerations spell the wire vocabulary: each case's raw value is its wire value's
/// spelling, every wire value has exactly one case, and a spelling reads back to its case.
final class WireSpellingTests: XCTestCase {
    private func check<C: WireSpelled & Hashable>(_: C.Type, _ line: UInt = #line) where C.Wire: Hashable {
        XCTAssertEqual(Set(C.allCases.map(\.wire)), Set(C.Wire.allCases), "\(C.self)", line: line)
        XCTAssertEqual(C.allCases.count, C.Wire.allCases.count, "\(C.self)", line: line)
        for value in C.allCases {
            XCTAssertEqual(value.rawValue, value.wire.string, "\(C.self).\(value)", line: line)
            XCTAssertEqual(C(rawValue: value.rawValue), value, "\(C.self).\(value)", line: line)
        }
        XCTAssertNil(C(rawValue: "no such value"), "\(C.self)", line: line)
    }

    func testEachEnumerationSpellsTheWire() {
        check(Device.self)
        check(SizeClass.self)
        check(UserControl.self)
        check(TaskState.self)
        check(AlertButton.Style.self)
        check(ModalButton.Role.self)
        check(DismissVia.self)
        check(ModalStyle.self)
        check(ModalTransition.self)
    }

    func testTheRawValuesAreTheSpellingsAppsSend() {
        XCTAssertEqual(ModalStyle.overCurrentContext.rawValue, "over_current_context")
        XCTAssertEqual(UserControl.toolbarButton.rawValue, "toolbar_button")
        XCTAssertEqual(AlertButton.Style.default.rawValue, "default")
    }
}
