@testable import AlertText
import Dispatch
import XCTest

/// The words memo (`WordMemo`) and the word walk's ASCII fast path must yield exactly
/// what a plain walk yields: same words, shapes, quotations, sentence starts and
/// quotation state, for any bytes, on any thread, after any reuse of a buffer.
final class WordMemoTests: XCTestCase {
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
                    offset: word.offset, length: word.text.count, index: word.index, shape: word.shape,
                    quotation: word.quotation, startsSentence: word.startsSentence,
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
            bytes += WordMemoTests.pieces.randomElement(using: &random)!
        }
        return bytes
    }

    func testTheMemoYieldsWhatAPlainWalkYields() {
        var random = SplitMix(state: 7)
        for _ in 0..<20_000 {
            let bytes = randomText(&random)
            bytes.withUnsafeBufferPointer { buffer in
                let text = TextSlice(buffer)
                let plain = steps(Words.Iterator(text))
                let memo = steps(text.words.makeIterator())
                XCTAssertEqual(memo.0, plain.0, "words of \(bytes)")
                XCTAssertEqual(memo.1, plain.1, "quotation state at the end of \(bytes)")
                // Twice: the second walk reads the memo's list.
                let again = steps(text.words.makeIterator())
                XCTAssertEqual(again.0, plain.0, "words of \(bytes), read again")
            }
        }
    }

    func testTheScanReadsAnASCIIWordsShapeAsTheGeneralRuleDoes() {
        var random = SplitMix(state: 11)
        for _ in 0..<20_000 {
            let bytes = randomText(&random)
            bytes.withUnsafeBufferPointer { buffer in
                var walk = Words.Iterator(TextSlice(buffer))
                while let word = walk.next() {
                    XCTAssertEqual(word.shape, Words.Iterator.shape(of: word.text), "shape of \(word.string) in \(bytes)")
                }
            }
        }
    }

    func testAReusedBufferIsReadForItsNewBytes() {
        var buffer = Array("Delete this contact".utf8)
        let replacement = Array("Tap OK to continue!".utf8)
        XCTAssertEqual(replacement.count, buffer.count)
        buffer.withUnsafeMutableBufferPointer { bytes in
            let text = TextSlice(UnsafeBufferPointer(bytes))
            XCTAssertEqual(text.words.map(\.string), ["Delete", "this", "contact"])
            // Same address, same length, other bytes: as a host reuses its buffers.
            for index in 0..<bytes.count { bytes[index] = replacement[index] }
            XCTAssertEqual(text.words.map(\.string), ["Tap", "OK", "to", "continue"])
            XCTAssertEqual(text.words.map(\.shape), [.capitalized, .allCaps, .lowercase, .lowercase])
        }
    }

    func testAWalkKeepsItsWordsWhileManyOtherTextsAreWalked() {
        TextSlice.with("Tap “Delete All” to remove the files") { text in
            var walk = text.words.makeIterator()
            XCTAssertEqual(walk.next()?.string, "Tap")
            // More distinct texts than the memo keeps: the walk's own list is evicted from it.
            for n in 0..<100 {
                _ = TextSlice.with("Text number \(n) of many") { $0.wordCount }
            }
            var rest: [String] = []
            while let word = walk.next() { rest.append(word.string) }
            XCTAssertEqual(rest, ["Delete", "All", "to", "remove", "the", "files"])
            XCTAssertTrue(TextSlice.with("Delete All") { text.quotes($0) })
            XCTAssertFalse(TextSlice.with("Delete") { text.quotes($0) })
        }
    }

    func testAWalkWhoseSlotIsReusedGoesOnAsAPlainWalk() {
        var random = SplitMix(state: 23)
        for round in 0..<300 {
            let bytes = randomText(&random)
            bytes.withUnsafeBufferPointer { buffer in
                let text = TextSlice(buffer)
                let plain = steps(Words.Iterator(text))
                _ = steps(text.words.makeIterator())  // into the memo
                var walk = text.words.makeIterator()  // reads the memo's slot
                let stop = plain.0.isEmpty ? 0 : round % (plain.0.count + 1)
                var before: [Bool] = []
                for _ in 0..<stop {
                    _ = walk.next()
                    before.append(walk.isInsideQuotation)
                }
                // Every slot given to other texts: the walk's slot now holds one of them.
                for n in 0..<40 { _ = TextSlice.with("Other text \(round) \(n)") { $0.wordCount } }
                XCTAssertEqual(before, plain.0.prefix(stop).map(\.insideQuotation), "before, \(bytes)")
                if stop > 0 {
                    XCTAssertEqual(walk.isInsideQuotation, plain.0[stop - 1].insideQuotation, "after, \(bytes)")
                }
                let rest = steps(walk)
                XCTAssertEqual(rest.0, Array(plain.0.dropFirst(stop)), "the rest of \(bytes) after \(stop) words")
                XCTAssertEqual(rest.1, plain.1, "quotation state at the end of \(bytes)")
            }
        }
    }

    func testThreadsEachReadTheirOwnTexts() {
        let texts = (0..<8).map { "Thread \($0) says: Delete “File \($0)” now? Yes." }
        let expected = texts.map { text in TextSlice.with(text) { $0.words.map(\.string) } }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<2_000 {
                // Each thread walks its own text and a neighbour's, alternating.
                let index = round % 2 == 0 ? thread : (thread + 1) % texts.count
                let words = TextSlice.with(texts[index]) { $0.words.map(\.string) }
                if words != expected[index] {
                    XCTFail("thread \(thread), round \(round): \(words)")
                    return
                }
            }
        }
    }

    func testLongTextsAreWalkedWithoutTheMemo() {
        let long = String(repeating: "Delete this contact. ", count: 60)  // over 1 KiB
        XCTAssertGreaterThan(long.utf8.count, WordMemo.longestText)
        TextSlice.with(long) { text in
            XCTAssertNil(WordMemo.words(of: text))
            XCTAssertEqual(text.wordCount, 180)
            XCTAssertEqual(text.sentenceCount, 60)
        }
    }
}
