import ControlProtocol
import XCTest

final class JSONParserTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    func testNumbersKeepTheirKind() throws {
        XCTAssertEqual(try parse("1"), .integer(1))
        XCTAssertEqual(try parse("-0"), .integer(0))
        XCTAssertEqual(try parse("1.0"), .number(1))
        XCTAssertEqual(try parse("1e2"), .number(100))
        XCTAssertEqual(try parse("9223372036854775807"), .integer(Int64.max))
        XCTAssertEqual(try parse("-9223372036854775808"), .integer(Int64.min))
        XCTAssertEqual(try parse("9223372036854775808"), .unsigned(1 << 63))
        XCTAssertEqual(try parse("18446744073709551616"), .number(18_446_744_073_709_551_616))
        XCTAssertEqual(try parse("true"), .bool(true))
        XCTAssertEqual(try parse("1").wholeNumber, 1)
        XCTAssertNil(try parse("1.0").wholeNumber)
        XCTAssertNil(try parse("true").wholeNumber)
        XCTAssertEqual(try parse("18446744073709551615").wholeNumber, Int.max)
    }

    func testStringsAndEscapes() throws {
        XCTAssertEqual(try parse(#""a\/b\"\\\n\u00e9\ud83d\ude42""#), .string("a/b\"\\\né🙂"))
        XCTAssertEqual(
            try parse(#" { "k" : [ 1 , "v" , null ] } "#),
            .object(["k": .array([.integer(1), .string("v"), .null])])
        )
        XCTAssertEqual(try parse(#"{"k":1,"k":2}"#), .object(["k": .integer(2)]), "the last of a repeated key counts")
    }

    func testMalformedInputIsRefusedNotTrapped() {
        let bad: [[UInt8]] = [
            [], Array("status please".utf8), Array(#"{"cmd":"sta"#.utf8), Array("[1,]".utf8), Array("01".utf8),
            Array("1.".utf8), Array("-".utf8), Array(#"{"a" 1}"#.utf8), Array(#""\ud800""#.utf8), Array(#""\x""#.utf8),
            Array("\"a\tb\"".utf8), [0x22, 0xFF, 0xFE, 0x22], Array("1 2".utf8), Array("nul".utf8), Array("1e999".utf8),
            Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000),
        ]
        for input in bad {
            XCTAssertThrowsError(try JSONParser.parse(input), String(decoding: input.prefix(40), as: UTF8.self))
        }
    }

    func testNestingUpToTheLimitIsAccepted() throws {
        let depth = JSONParser.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertNoThrow(try parse(text))
        XCTAssertThrowsError(try parse("[" + text + "]"))
    }

    func testParsingWhatTheWriterWroteGivesTheSameValue() throws {
        let value: JSONValue = .object([
            "s": .string("tab\t/slash \u{0}"), "n": .number(0.25), "i": .integer(-7), "u": .unsigned(UInt64.max),
            "a": .array([.bool(false), .null, .object(["x": .string("")])]),
        ])
        XCTAssertEqual(try JSONParser.parse(JSONWriter.encode(value)), value)
    }
}
