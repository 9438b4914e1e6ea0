import Foundation
import RuleKit
import XCTest

/// `Evidence` writes one JSON object, keys in the order added, strings escaped; small ones inline.
final class EvidenceTests: XCTestCase {
    func testAnEmptyEvidenceIsAnEmptyObject() {
        XCTAssertEqual(Evidence().json, "{}")
        XCTAssertEqual(Evidence().withJSON { Array($0) }, Array("{}".utf8))
    }

    func testValuesAreWrittenInTheOrderAdded() {
        var evidence = Evidence()
        evidence.add("count", 4)
        evidence.add("limit", Int64(-3))
        evidence.add("modal", true)
        evidence.add("title", Optional<String>.none)
        evidence.add("words", ["Delete", "\"file\""])
        evidence.add("depths", [1, 2, 3])
        evidence.addNull("button")
        XCTAssertEqual(
            evidence.json,
            #"{"count":4,"limit":-3,"modal":true,"title":null,"words":["Delete","\"file\""],"depths":[1,2,3],"button":null}"#
        )
    }

    /// Texts from the host are written from their bytes as the same strings made `String`s
    /// first would be: escaped, an absent one as an empty string.
    func testTextsAreWrittenAsTheirStringsWouldBe() {
        let titles = ["Delete", "\"file\" \u{2028} é 🙂", ""]
        let bytes = titles.map { Array($0.utf8) }
        var fromTexts = Evidence()
        var fromStrings = Evidence()
        bytes[0].withUnsafeBufferPointer { first in
            bytes[1].withUnsafeBufferPointer { second in
                let texts = [Text(first), Text(second), Text.absent]
                fromTexts.add("titles", texts: texts.count) { texts[$0] }
            }
        }
        fromStrings.add("titles", titles)
        XCTAssertEqual(fromTexts.json, fromStrings.json)
        XCTAssertEqual(fromStrings.json, #"{"titles":["Delete","\"file\" \u2028 é 🙂",""]}"#)
    }

    func testStringsAreEscapedSoThatTheObjectParses() throws {
        let nasty = "quote \" backslash \\ newline \n tab \t bell \u{7} line-sep \u{2028} para-sep \u{2029} é 🙂"
        var evidence = Evidence()
        evidence.add("text", nasty)
        let parsed = try JSONSerialization.jsonObject(with: Data(evidence.json.utf8)) as? NSDictionary
        XCTAssertEqual(parsed?["text"] as? String, nasty)
        XCTAssertFalse(evidence.json.contains("\u{2028}"), "U+2028 escaped: JavaScript would break the line there")
        XCTAssertFalse(evidence.json.contains("\n"))
    }

    func testALargeObjectMovesToTheHeapIntact() throws {
        var evidence = Evidence()
        for index in 0..<40 { evidence.add("key\(index)", String(repeating: "x", count: index)) }
        let parsed = try JSONSerialization.jsonObject(with: Data(evidence.json.utf8)) as? NSDictionary
        XCTAssertEqual(parsed?.count, 40)
        XCTAssertEqual(parsed?["key39"] as? String, String(repeating: "x", count: 39))
    }

    func testAppendStringWritesAJSONStringLiteral() {
        var out = ""
        Evidence.appendString("a\"b\\c\u{1}", to: &out)
        XCTAssertEqual(out, #""a\"b\\c\u0001""#)
    }
}
