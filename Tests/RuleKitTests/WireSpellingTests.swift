import ModalwatchABI
import RuleKit
import XCTest

/// RuleKit's enumerations are ByteBasics' wire vocabulary under RuleKit's names: the same cases,
/// the same numbers, the same spellings.
final class WireSpellingTests: XCTestCase {
    private func check<R: CaseIterable & RawRepresentable, W: WireValue & RawRepresentable>(
        _: R.Type,
        _: W.Type,
        name: (R) -> String,
        _ line: UInt = #line
    ) where R.RawValue == W.RawValue {
        XCTAssertEqual(R.allCases.count, W.allCases.count, "\(R.self)", line: line)
        for value in R.allCases {
            let wire = W(rawValue: value.rawValue)
            XCTAssertNotNil(wire, "\(R.self).\(value)", line: line)
            XCTAssertEqual(name(value), wire.map(\.string), "\(R.self).\(value)", line: line)
        }
    }

    func testEachEnumerationSpellsAndNumbersAsTheWire() {
        check(Device.self, WireDevice.self, name: \.name)
        check(SizeClass.self, WireSizeClass.self, name: \.name)
        check(Control.self, WireControl.self, name: \.name)
        check(TaskState.self, WireTaskState.self, name: \.name)
        check(ButtonStyle.self, WireButtonStyle.self, name: \.name)
        check(ModalRole.self, WireModalRole.self, name: \.name)
        check(Via.self, WireVia.self, name: \.name)
        check(ModalStyle.self, WireModalStyle.self, name: \.name)
        check(Transition.self, WireTransition.self, name: \.name)
        check(EventType.self, WireEventType.self, name: { $0.wireName.description })
    }

    func testTheNumbersAreTheHeaders() {
        XCTAssertEqual(Device.vision.rawValue, Int32(MW_DEVICE_VISION.rawValue))
        XCTAssertEqual(SizeClass.regular.rawValue, Int32(MW_SIZE_REGULAR.rawValue))
        XCTAssertEqual(Control.other.rawValue, Int32(MW_CONTROL_OTHER.rawValue))
        XCTAssertEqual(TaskState.cancelled.rawValue, Int32(MW_TASK_CANCELLED.rawValue))
        XCTAssertEqual(ButtonStyle.destructive.rawValue, Int32(MW_BUTTON_DESTRUCTIVE.rawValue))
        XCTAssertEqual(ModalRole.other.rawValue, Int32(MW_ROLE_OTHER.rawValue))
        XCTAssertEqual(Via.gesture.rawValue, Int32(MW_VIA_GESTURE.rawValue))
        XCTAssertEqual(ModalStyle.custom.rawValue, Int32(MW_STYLE_CUSTOM.rawValue))
        XCTAssertEqual(Transition.custom.rawValue, Int32(MW_TRANSITION_CUSTOM.rawValue))
        XCTAssertEqual(EventType.navPop.rawValue, MW_EVENT_NAV_POP.rawValue)
    }
}
