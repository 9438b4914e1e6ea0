import Foundation
import XCTest

@testable import modalwatch

/// `Terminal.visible`: what the CLI writes for people carries no control character from outside.
final class TerminalTests: XCTestCase {
    func testControlCharactersAreShownAsTheirCodePoints() {
        XCTAssertEqual(Terminal.visible("a\u{1B}]0;PWNED\u{07}\u{1B}[2Jb"), "a\\u{1B}]0;PWNED\\u{7}\\u{1B}[2Jb")
        XCTAssertEqual(Terminal.visible("tab\tnew\nline\r\u{7F}\u{9B}"), "tab\\u{9}new\\u{A}line\\u{D}\\u{7F}\\u{9B}")
        XCTAssertEqual(
            Terminal.visible("\u{202E}evil\u{2066}\u{061C}\u{2028}"),
            "\\u{202E}evil\\u{2066}\\u{61C}\\u{2028}"
        )
    }

    func testPlainTextAndOtherUnicodeAreLeftAsTheyAre() {
        let text = "Session S-1   com.example   “Löschen?” — 削除 🗑️ e\u{301}"
        XCTAssertEqual(Terminal.visible(text), text)
    }

    func testOnlyThePaintMarkBecomesAnEscape() {
        let mark = Terminal.colourMark
        XCTAssertEqual(Terminal.visible("\(mark)[31mred\(mark)[0m"), "\u{1B}[31mred\u{1B}[0m")
        // The mark's first character alone, or with other private-use characters, is text.
        let forged = "\u{F8FF}\u{E000}\u{E000}\u{E000}\u{E000}\u{E000}\u{E000}\u{E000}\u{E000}[31m"
        if !forged.hasPrefix(mark) { XCTAssertFalse(Terminal.visible(forged).contains("\u{1B}")) }
        XCTAssertFalse(Terminal.visible("\u{F8FF}[31m").contains("\u{1B}"))
    }

    func testWidthsIgnoreThePaintMarks() {
        let mark = Terminal.colourMark
        let painted = "\(mark)[33m12\(mark)[0m"
        XCTAssertEqual(Terminal.visibleWidth(painted), 2)
        XCTAssertEqual(Terminal.visible(Terminal.clip("\(mark)[1mheader\(mark)[0m", to: 3)), "\u{1B}[1mhea\u{1B}[0m")
    }
}

/// `JSONOutput.escaped`: JSON whose raw DEL, C1 and bidi characters become `\uXXXX`, same value.
final class JSONOutputTests: XCTestCase {
    func testWhatJSONLeavesRawIsEscapedAndTheValueIsTheSame() throws {
        let json = Array(#"{"a":"x\u001b\#u{7F}\#u{9B}\#u{202E}“q”"}"#.utf8)
        let escaped = JSONOutput.escaped(json)
        XCTAssertEqual(String(decoding: escaped, as: UTF8.self), #"{"a":"x\u001b\u007f\u009b\u202e“q”"}"#)
        let before = try JSONSerialization.jsonObject(with: Data(json)) as? [String: String]
        let after = try JSONSerialization.jsonObject(with: Data(escaped)) as? [String: String]
        XCTAssertEqual(before, after)
        XCTAssertEqual(JSONOutput.escaped(Array(#"{"plain":1}"#.utf8)), Array(#"{"plain":1}"#.utf8))
    }

    /// The scan reads eight bytes at a time and jumps to the first byte of 0x7F or above: every
    /// character to escape is found wherever it falls in a word, after ASCII, after other
    /// characters of two, three and four bytes, and at the very end.
    /// JSON of every length up to 80 bytes, plain and with one character to escape at its end:
    /// the word-at-a-time scan ends exactly at the end, whatever the length.
    func testEveryLengthIsScannedToItsEnd() {
        for length in 8...80 {
            let plain = "{\"m\":\"" + String(repeating: "x", count: length - 8) + "\"}"
            XCTAssertEqual(
                String(decoding: JSONOutput.escaped(Array(plain.utf8)), as: UTF8.self),
                plain,
                "length \(length)"
            )
            let marked = "{\"m\":\"" + String(repeating: "x", count: length - 8) + "\u{85}\"}"
            let written = "{\"m\":\"" + String(repeating: "x", count: length - 8) + "\\u0085\"}"
            XCTAssertEqual(
                String(decoding: JSONOutput.escaped(Array(marked.utf8)), as: UTF8.self),
                written,
                "length \(length)"
            )
        }
    }

    func testEveryEscapeIsFoundWhereverItFallsInAWord() {
        let fillers = ["", "a", "ab", "abcdefg", "é", "“", "😀", "日本", "¢", "ض"]
        let marks: [(String, String)] = [
            ("\u{7F}", "\\u007f"), ("\u{85}", "\\u0085"), ("\u{61C}", "\\u061c"),
            ("\u{200F}", "\\u200f"), ("\u{2029}", "\\u2029"), ("\u{2066}", "\\u2066"),
        ]
        for lead in 0..<9 {
            for filler in fillers {
                for (mark, written) in marks {
                    let padding = String(repeating: "x", count: lead)
                    let value = padding + filler + mark + filler + "“q”" + mark
                    let json = Array("{\"m\":\"\(value)\"}".utf8)
                    let expected = "{\"m\":\"" + padding + filler + written + filler + "“q”" + written + "\"}"
                    XCTAssertEqual(
                        String(decoding: JSONOutput.escaped(json), as: UTF8.self),
                        expected,
                        "lead \(lead), filler \(filler)"
                    )
                    var appended: [UInt8] = []
                    json.withUnsafeBytes { JSONOutput.appendEscaped($0, to: &appended) }
                    XCTAssertEqual(String(decoding: appended, as: UTF8.self), expected)
                }
            }
        }
    }
}
