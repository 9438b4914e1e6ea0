import ModalwatchABI
import XCTest

@testable import AlertText

/// A text walked from its word list (`WordList`: the host's tokens, `mw_host.words`, as
/// `scanWords` makes them) and the word walk's ASCII fast path must yield exactly what a
/// plain walk yields: same words, shapes, quotations, sentence starts and quotation state,
/// for any bytes; and a trimmed view keeps the list only where it holds.
final class WordListTests: XCTestCase {
    /// Everything a walk yields for one word, plus the walk's quotation state after it.
    private struct Step: Equatable {
        var offset: Int
        var length: Int
        var index: Int
        var shape: WordShape
        var quotation: Int
        var startsSentence: Bool
        var insideQuotation: Bool
    }

    /// The steps of `walk` to its end, and the quotation state at the end.
    private func steps(_ walk: Words.Iterator) -> ([Step], Bool) {
        var walk = walk
        var result: [Step] = []
        while let word = walk.next() {
            result.append(
                Step(
                    offset: word.offset,
                    length: word.text.count,
                    index: word.index,
                    shape: word.shape,
                    quotation: word.quotation,
                    startsSentence: word.startsSentence,
                    insideQuotation: walk.isInsideQuotation
                )
            )
        }
        return (result, walk.isInsideQuotation)
    }

    /// A deterministic generator (SplitMix64), so a failure can be replayed.
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

    /// Pieces texts are made of: ASCII words in every case, digits, apostrophes, quotation
    /// marks, ending marks, emoji that look like letters, combining marks, non-Latin letters.
    private static let pieces: [[UInt8]] =
        [
            "delete", "Delete", "DELETE", "iCloud", "OK", "3D", "1st", "a", "I", "x1y",
            " ", "  ", "\t", "\n", "'", "’", "\"", "“", "”", "„", "‘", "«", "»",
            ".", "!", "?", "…", ",", ";", ":", "...", "-", "(", ")",
            "ℹ️", "3️⃣", "A\u{FE0F}", "7\u{20E3}", "🅰", "e\u{301}", "É", "éditer", "ß", "ǅemal", "写真", "שלום",
            "\u{200D}", "\u{2028}",
        ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x80], [0x80], [0xED, 0xA0, 0x80]]

    private func randomText(_ random: inout SplitMix) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            bytes += WordListTests.pieces.randomElement(using: &random)!
        }
        return bytes
    }

    /// Calls `body` with a view of `buffer` carrying the list `scanWords` makes of it.
    private func withListed<R>(_ buffer: UnsafeBufferPointer<UInt8>, _ body: (TextSlice) -> R) -> R {
        var words: [mw_word] = []
        let flags = TextSlice(buffer).scanWords { words.append($0) }
        return words.withUnsafeBufferPointer { list in
            body(
                TextSlice(
                    buffer,
                    words: WordList(mw_words(words: list.baseAddress, count: UInt32(list.count), flags: flags))
                )
            )
        }
    }

    func testAListedTextYieldsWhatAPlainWalkYields() {
        var random = SplitMix(state: 7)
        for _ in 0..<20_000 {
            let bytes = randomText(&random)
            bytes.withUnsafeBufferPointer { buffer in
                let text = TextSlice(buffer)
                XCTAssertNil(text.wordList)
                let plain = steps(Words.Iterator(scanning: text))
                XCTAssertEqual(steps(text.words.makeIterator()).0, plain.0)
                withListed(buffer) { listed in
                    let read = steps(listed.words.makeIterator())
                    XCTAssertEqual(read.0, plain.0, "words of \(bytes)")
                    XCTAssertEqual(read.1, plain.1, "quotation state at the end of \(bytes)")
                    // What the rules ask of a text reads the same from the list.
                    XCTAssertEqual(listed.isTitleStyle, text.isTitleStyle, "\(bytes)")
                    XCTAssertEqual(listed.isSentenceStyle, text.isSentenceStyle, "\(bytes)")
                    XCTAssertEqual(listed.sentenceCount, text.sentenceCount, "\(bytes)")
                    XCTAssertEqual(listed.firstPronoun?.string, text.firstPronoun?.string, "\(bytes)")
                    // A trimmed view, with or without its ending punctuation, walks as its own bytes would.
                    for part in [listed.trimmed, listed.trimmingEndingPunctuation] {
                        let own = steps(Words.Iterator(scanning: TextSlice(part.bytes)))
                        XCTAssertEqual(steps(part.words.makeIterator()).0, own.0, "part of \(bytes)")
                    }
                }
            }
        }
    }

    func testATrimmedViewKeepsTheListOfItsText() {
        Array("  Delete “All” now?  ".utf8).withUnsafeBufferPointer { buffer in
            withListed(buffer) { listed in
                XCTAssertNotNil(listed.trimmed.wordList)
                XCTAssertNotNil(listed.trimmingEndingPunctuation.wordList)
                XCTAssertEqual(listed.trimmingEndingPunctuation.words.map(\.string), ["Delete", "All", "now"])
                XCTAssertEqual(listed.trimmed.words.map(\.offset), [0, 10, 17])
            }
        }
    }

    func testTheScanReadsAnASCIIWordsShapeAsTheGeneralRuleDoes() {
        var random = SplitMix(state: 11)
        for _ in 0..<20_000 {
            let bytes = randomText(&random)
            bytes.withUnsafeBufferPointer { buffer in
                var walk = Words.Iterator(scanning: TextSlice(buffer))
                while let word = walk.next() {
                    XCTAssertEqual(
                        word.shape,
                        Words.Iterator.shape(of: word.text),
                        "shape of \(word.string) in \(bytes)"
                    )
                }
            }
        }
    }
}
