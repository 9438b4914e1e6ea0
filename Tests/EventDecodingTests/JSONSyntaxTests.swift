import EventDecoding
import XCTest

final class JSONSyntaxTests: XCTestCase {
    func testValidObjects() {
        for text in ["{}", " {} ", "\n{\"a\":1}\r\n", #"{"a":[1,2.5e-3,-0,true,false,null,{"b":"\u00e9\ud83d\ude00"}],"c":{}}"#,
                     #"{"a":"“curly” 😀"}"#, #"{"a":1,"a":2}"#] {
            XCTAssertTrue(JSONSyntax.isValidObject(text), text)
        }
    }

    func testInvalidObjects() {
        for text in ["", " ", "[]", "1", "\"x\"", "null", "{", "{}}", "{} {}", "{},", #"{"a":}"#, #"{"a":1,}"#, #"{a:1}"#,
                     #"{"a":NaN}"#, #"{"a":01}"#, #"{"a":"\x"}"#, #"{"a":"\ud800"}"#, "{\"a\":\"\t\"}", "\u{FEFF}{}", "{} x"] {
            XCTAssertFalse(JSONSyntax.isValidObject(text), text)
        }
        XCTAssertFalse(JSONSyntax.isValidObject(UnsafeRawBufferPointer(start: nil, count: 0)))
        let invalidUTF8: [UInt8] = [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]
        XCTAssertFalse(invalidUTF8.withUnsafeBytes { JSONSyntax.isValidObject($0) })
    }

    func testDepthLimit() {
        let nested = { (n: Int) in "{\"a\":" + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "}" }
        XCTAssertTrue(JSONSyntax.isValidObject(nested(127)))
        XCTAssertFalse(JSONSyntax.isValidObject(nested(128)))
        XCTAssertFalse(JSONSyntax.isValidObject(nested(2), maxDepth: 2))
        XCTAssertTrue(JSONSyntax.isValidObject(nested(1), maxDepth: 2))
    }
}
