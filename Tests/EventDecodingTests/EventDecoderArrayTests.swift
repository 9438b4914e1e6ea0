import EventDecoding
import ModalwatchABI
import XCTest

/// `buttons` and `text_fields` are read once, in the scan that validates the event, and checked
/// from what that scan recorded: the rejections name the same item, say the same thing and point
/// at the same byte as a scan of the array would, and the last of duplicate arrays wins.
final class EventDecoderArrayTests: XCTestCase {
    private let decoder = EventDecoder()

    private func offset(of needle: String, in payload: String, from: Int = 0) -> Int? {
        let bytes = Array(payload.utf8)
        return bytes[from...].firstRange(of: Array(needle.utf8))?.lowerBound
    }

    func testAnItemThatIsNotAnObjectIsRejectedAtIt() throws {
        let payload = event("alert.presented", #""id":"a","buttons":[{"title":"a"}, "b"]"#)
        let r = try XCTUnwrap(decoder.rejection(payload))
        XCTAssertEqual(r.reason, .badField)
        XCTAssertEqual(r.detail, "field 'buttons[1]' must be an object")
        XCTAssertEqual(r.offset, offset(of: #""b"]"#, in: payload))
    }

    func testAMissingTitleIsRejectedAfterItsItem() throws {
        let payload = event("modal.presented", #""id":"a","buttons":[{"title":"x"},{"role":"done"} ]"#)
        let r = try XCTUnwrap(decoder.rejection(payload))
        XCTAssertEqual(r.reason, .missingField)
        XCTAssertEqual(r.detail, "field 'buttons[1].title' is required")
        XCTAssertEqual(r.offset, offset(of: "} ]", in: payload).map { $0 + 1 })
    }

    func testTheItemPastTheLimitIsRejectedAtItsStartWhateverItHolds() throws {
        let d = EventDecoder(limits: EventLimits(maxButtons: 2, maxTextFields: 1))
        let payload = event(
            "alert.presented",
            #""id":"a","buttons":[{"title":"a"},{"title":"b"}, 7, {"nothing":[1,{}]}]"#
        )
        let r = try XCTUnwrap(d.rejection(payload))
        XCTAssertEqual(r.reason, .tooLarge)
        XCTAssertEqual(r.field, "buttons")
        XCTAssertEqual(r.offset, offset(of: "7,", in: payload))
        let fields = event("alert.presented", #""id":"a","text_fields":[{"secure":true},{"secure":"no"}]"#)
        let f = try XCTUnwrap(d.rejection(fields))
        XCTAssertEqual(f.reason, .tooLarge, "too many before the second item's own problem")
        XCTAssertEqual(f.offset, offset(of: #"{"secure":"no"}"#, in: fields))
    }

    func testMalformedJSONPastTheLimitIsStillMalformed() throws {
        let d = EventDecoder(limits: EventLimits(maxButtons: 1))
        let r = try XCTUnwrap(
            d.rejection(event("alert.presented", #""id":"a","buttons":[{"title":"a"},{"title":"b"},{"title":01}]"#))
        )
        XCTAssertEqual(r.reason, .malformedJSON)
        let payload = event("alert.presented", #""id":"a","buttons":[{"title":"a"},{"title":"b"} "c"]"#)
        let s = try XCTUnwrap(d.rejection(payload))
        XCTAssertEqual(s.offset, offset(of: #""c""#, in: payload))
        XCTAssertEqual(s.detail, "invalid JSON: expected ',' or ']' in array at byte \(s.offset)")
    }

    func testTheLastOfDuplicateArraysWins() throws {
        let e = try XCTUnwrap(
            decoder.event(
                event(
                    "alert.presented",
                    #""id":"a","buttons":[{"title":"a"},{"title":"b"},{"title":"c"}],"buttons":[{"title":"d","style":"cancel"}]"#
                )
            )
        )
        XCTAssertEqual(e.buttons?.map(\.title), ["d"])
        XCTAssertEqual(e.buttons?.first?.style, Int32(MW_BUTTON_CANCEL.rawValue))
        let r = try XCTUnwrap(
            decoder.rejection(
                event(
                    "alert.presented",
                    #""id":"a","buttons":[{"title":"a"}],"buttons":"b""#
                )
            )
        )
        XCTAssertEqual(r.detail, "field 'buttons' must be an array")
        let f = try XCTUnwrap(
            decoder.event(
                event(
                    "alert.presented",
                    #""id":"a","text_fields":[{"secure":true},{}],"text_fields":[{},{},{"secure":true}]"#
                )
            )
        )
        XCTAssertEqual(f.textFieldCount, 3)
        XCTAssertEqual(f.secureTextFieldCount, 1)
    }

    func testArraysOfAnotherTypeAreValidatedNotChecked() throws {
        XCTAssertNotNil(decoder.event(event("user.action", #""buttons":[1,"x",{"title":5}],"text_fields":[null]"#)))
        XCTAssertEqual(decoder.rejection(event("user.action", #""buttons":[1,tru]"#))?.reason, .malformedJSON)
    }

    func testNestingIsCountedAsInAScan() throws {
        let d = EventDecoder(limits: EventLimits(maxDepth: 3))
        XCTAssertNotNil(d.event(event("alert.presented", #""id":"a","buttons":[{"title":"x","y":1}]"#)))
        let deep = event("alert.presented", #""id":"a","buttons":[{"title":"x","y":[]}]"#)
        XCTAssertEqual(
            d.rejection(deep)?.detail,
            "invalid JSON: nested too deep at byte \(offset(of: "[]", in: deep)!)"
        )
        let two = EventDecoder(limits: EventLimits(maxDepth: 2))
        for items in [#"[{"title":"x"}]"#, "[[]]"] {
            let payload = event("alert.presented", #""id":"a","buttons":\#(items)"#)
            let at = offset(of: items, in: payload)! + 1
            XCTAssertEqual(two.rejection(payload)?.detail, "invalid JSON: nested too deep at byte \(at)", items)
        }
        XCTAssertEqual(
            two.rejection(event("alert.presented", #""id":"a","buttons":["x"]"#))?.detail,
            "field 'buttons[0]' must be an object"
        )
    }
}
