import ByteBasics
import EventDecoding
import XCTest

final class JSONStringEscaperTests: XCTestCase {
    private func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        JSONStringEscaper.appendQuoted(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func testEscapes() {
        XCTAssertEqual(quoted("plain"), #""plain""#)
        XCTAssertEqual(quoted("a\"b\\c/d"), #""a\"b\\c/d""#)
        XCTAssertEqual(quoted("\n\r\t\u{8}\u{C}\u{0}\u{1F}\u{7F}"), #""\n\r\t\b\f\u0000\u001f"# + "\u{7F}\"")
        XCTAssertEqual(quoted("“curly” é 😀"), "\"“curly” é 😀\"")
        XCTAssertEqual(quoted(""), #""""#)
    }

    func testAppendsWithoutClearing() {
        var out = Array("x=".utf8)
        JSONStringEscaper.appendQuoted("y", to: &out)
        let bytes: [UInt8] = [0x61, 0x0A]
        bytes.withUnsafeBytes { JSONStringEscaper.appendEscaped($0, to: &out) }
        XCTAssertEqual(String(decoding: out, as: UTF8.self), #"x="y"a\n"#)
    }

    func testInvalidUTF8BecomesReplacementCharacter() {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98]
        var out: [UInt8] = []
        bytes.withUnsafeBytes { JSONStringEscaper.appendQuoted($0, to: &out) }
        XCTAssertEqual(
            String(decoding: out, as: UTF8.self),
            "\"a\u{FFFD}b\u{FFFD}(\u{FFFD}\u{FFFD}\u{FFFD}€\u{FFFD}\u{FFFD}\u{FFFD}\""
        )
        XCTAssertTrue(
            ("{\"k\":" + String(decoding: out, as: UTF8.self) + "}").utf8.withContiguousStorageIfAvailable {
                JSONSyntax.isValidObject(UnsafeRawBufferPointer($0))
            } ?? false
        )
    }

    /// Whatever is escaped decodes back to the same bytes.
    func testRoundTripThroughTheDecoder() throws {
        var all = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }.map(String.init).joined()
        all += "é€😀\u{10FFFF}\u{FFFF}"
        var payload = Array(#"{"v":1,"type":"nav.push","session":"S1","ts":1,"screen":"#.utf8)
        JSONStringEscaper.appendQuoted(all, to: &payload)
        payload.append(UInt8(ascii: "}"))
        let e = try XCTUnwrap(EventDecoder().outcomes(payload).first?.event)
        XCTAssertEqual(e.screen.map { Array($0.utf8) }, Array(all.utf8))
    }
}
