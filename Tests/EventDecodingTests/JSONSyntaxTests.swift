import XCTest

@testable import EventDecoding

final class JSONSyntaxTests: XCTestCase {
    func testValidObjects() {
        for text in [
            "{}", " {} ", "\n{\"a\":1}\r\n", #"{"a":[1,2.5e-3,-0,true,false,null,{"b":"\u00e9\ud83d\ude00"}],"c":{}}"#,
            #"{"a":"“curly” 😀"}"#, #"{"a":1,"a":2}"#,
        ] {
            XCTAssertTrue(JSONSyntax.isValidObject(text), text)
        }
    }

    /// The compact shape's quick check and the general scanner agree on evidence-like objects
    /// and on every one-byte change, insertion and cut of them.
    func testQuickCheckAgreesWithTheScanner() {
        let seeds = [
            #"{"count":4,"limit":3}"#, #"{"style":"current_context","size_class":"compact","from":null}"#,
            #"{"titles":["Mail","Message","Cancel"],"n":[1,-20,0],"e":[],"ok":true,"no":false}"#,
            #"{"title":"“Delete” é 😀","a":[null,"x"]}"#, #"{"a":-0,"b":10}"#, "{}",
        ]
        let replacements: [UInt8] =
            Array(#"{}[]",:-0159.eE+ tfnrul"#.utf8) + [0x00, 0x09, 0x0A, 0x7F, 0x80, 0xC3, 0xE2, 0xFF]
        var cases: [[UInt8]] = []
        for seed in seeds {
            let bytes = Array(seed.utf8)
            cases.append(bytes)
            for index in bytes.indices {
                cases.append(Array(bytes[..<index]))
                for byte in replacements {
                    var changed = bytes
                    changed[index] = byte
                    cases.append(changed)
                    var inserted = bytes
                    inserted.insert(byte, at: index)
                    cases.append(inserted)
                }
            }
        }
        var accepted = 0
        for bytes in cases {
            let (quick, scanner) = bytes.withUnsafeBytes {
                (JSONSyntax.isValidObject($0), JSONSyntax.scannerAccepts($0, maxDepth: 128))
            }
            if quick { accepted += 1 }
            XCTAssertEqual(quick, scanner, String(decoding: bytes, as: UTF8.self))
        }
        XCTAssertGreaterThan(accepted, 100, "the changes keep some objects valid")
    }

    func testInvalidObjects() {
        for text in [
            "", " ", "[]", "1", "\"x\"", "null", "{", "{}}", "{} {}", "{},", #"{"a":}"#, #"{"a":1,}"#, #"{a:1}"#,
            #"{"a":NaN}"#, #"{"a":01}"#, #"{"a":"\x"}"#, #"{"a":"\ud800"}"#, "{\"a\":\"\t\"}", "\u{FEFF}{}", "{} x",
        ] {
            XCTAssertFalse(JSONSyntax.isValidObject(text), text)
        }
        XCTAssertFalse(JSONSyntax.isValidObject(UnsafeRawBufferPointer(start: nil, count: 0)))
        let invalidUTF8: [UInt8] = [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]
        XCTAssertFalse(invalidUTF8.withUnsafeBytes { JSONSyntax.isValidObject($0) })
    }

    func testDepthLimit() {
        let nested = { (n: Int) in "{\"a\":" + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "}"
        }
        XCTAssertTrue(JSONSyntax.isValidObject(nested(127)))
        XCTAssertFalse(JSONSyntax.isValidObject(nested(128)))
        XCTAssertFalse(JSONSyntax.isValidObject(nested(2), maxDepth: 2))
        XCTAssertTrue(JSONSyntax.isValidObject(nested(1), maxDepth: 2))
    }
}
