import AlertText
import XCTest

/// Real-world and hostile input: 4 KiB strings (the wire format's limit for one
/// string), emoji, every script, random scalars and random bytes. Every helper
/// must give an answer, keep its invariants, and never read outside the text.
final class RobustnessTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Runs every helper on `slice` and checks what must hold whatever the text.
    private func exercise(_ slice: TextSlice, file: StaticString = #filePath, line: UInt = #line) {
        var previousEnd = 0
        var count = 0
        for word in slice.words {
            XCTAssertGreaterThanOrEqual(word.offset, previousEnd, file: file, line: line)
            XCTAssertLessThanOrEqual(word.offset + word.text.count, slice.count, file: file, line: line)
            XCTAssertGreaterThan(word.text.count, 0, file: file, line: line)
            XCTAssertEqual(word.index, count, file: file, line: line)
            previousEnd = word.offset + word.text.count
            count += 1
        }
        XCTAssertEqual(slice.wordCount, count, file: file, line: line)
        XCTAssertLessThanOrEqual(slice.sentenceCount, count, file: file, line: line)
        XCTAssertEqual(slice.sentenceCount == 0, count == 0, file: file, line: line)
        _ = slice.isTitleStyle
        _ = slice.isSentenceStyle
        _ = slice.isTitleStyleRatherThanSentenceStyle()
        _ = slice.startsWithCapital
        _ = slice.isQuestion
        _ = slice.firstPronoun
        _ = slice.endingMark
        XCTAssertLessThanOrEqual(slice.trimmingEndingPunctuation.count, slice.count, file: file, line: line)
        XCTAssertLessThanOrEqual(slice.trimmed.count, slice.count, file: file, line: line)
        let characters = slice.characterCount
        XCTAssertLessThanOrEqual(characters, slice.scalarCount, file: file, line: line)
        XCTAssertEqual(slice.hasMoreCharacters(than: 40), characters > 40, file: file, line: line)
        XCTAssertEqual(slice.hasMoreCharacters(than: 120), characters > 120, file: file, line: line)
        XCTAssertEqual(slice.hasMoreWords(than: 2), count > 2, file: file, line: line)
        if let first = slice.firstWord {
            _ = slice.instruction(naming: first.text)
            _ = slice.quotes(first.text)
        }
        _ = slice.quotes(slice)
        _ = slice.instruction(naming: slice)
    }

    func testFourKiBStrings() {
        let texts = [
            String(repeating: "a", count: 4096),
            String(repeating: "Tap ", count: 1024),
            String(repeating: "Can’t ", count: 512),
            String(repeating: "é", count: 2048),
            String(repeating: "🎉", count: 1024),
            String(repeating: "👨‍👩‍👧‍👦", count: 163),
            String(repeating: "“", count: 1365),
            String(repeating: "'", count: 4096),
            String(repeating: ". ", count: 2048),
            String(repeating: "e\u{301}", count: 1365),
            String(repeating: "写真", count: 682),
            String(repeating: " ", count: 4096),
        ]
        for text in texts {
            XCTAssertLessThanOrEqual(text.utf8.count, 4096)
            XCTAssertGreaterThan(text.utf8.count, 4000)
            TextSlice.with(text) { exercise($0) }
        }
        XCTAssertEqual(TextSlice.with(texts[0]) { $0.wordCount }, 1)
        XCTAssertEqual(TextSlice.with(texts[1]) { $0.wordCount }, 1024)
        XCTAssertEqual(TextSlice.with(texts[2]) { $0.wordCount }, 512)
        XCTAssertEqual(TextSlice.with(texts[4]) { $0.wordCount }, 0)
        XCTAssertEqual(TextSlice.with(texts[5]) { $0.characterCount }, 163)
        XCTAssertEqual(TextSlice.with(texts[7]) { $0.wordCount }, 0)
        XCTAssertEqual(TextSlice.with(texts[9]) { $0.characterCount }, 1365)
    }

    func testATapInstructionAtTheEndOfFourKiB() {
        let text = String(repeating: "word ", count: 812) + "tap the OK"
        XCTAssertLessThanOrEqual(text.utf8.count, 4096)
        XCTAssertEqual(
            TextSlice.with(text) { text in TextSlice.with("OK") { text.instruction(naming: $0)?.index } },
            812
        )
    }

    func testRandomScalars() {
        var random = SplitMix(state: 2009)
        let pool: [Unicode.Scalar] = [
            "a", "Z", "0", " ", ".", "?", "!", "…", "'", "’", "‘", "\"", "“", "”", "„", "«", "»", "(", ")", "é", "Ö",
            "\u{301}", "\u{FE0F}", "\u{20E3}", "\u{200D}", "🎉", "👍", "\u{1F3FD}", "🇫", "写", "ا", "\u{0}", "\n",
            "\u{2028}", "ǅ", "Σ", "ß", "İ", "\u{FFFD}", "\u{10FFFF}",
        ]
        for _ in 0..<400 {
            var text = ""
            for _ in 0..<Int.random(in: 0...300, using: &random) {
                text.unicodeScalars.append(pool[Int.random(in: 0..<pool.count, using: &random)])
            }
            TextSlice.with(text) { exercise($0) }
        }
    }

    func testRandomBytes() {
        var random = SplitMix(state: 7)
        for _ in 0..<400 {
            let bytes = (0..<Int.random(in: 0...512, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            bytes.withUnsafeBufferPointer { exercise(TextSlice($0)) }
        }
    }
}
