import XCTest

@testable import AlertText

final class SentencesTests: XCTestCase {
    private func mark(_ text: String) -> EndingMark? { TextSlice.with(text) { $0.endingMark } }
    private func sentences(_ text: String) -> Int { TextSlice.with(text) { $0.sentenceCount } }

    func testEndingMarks() {
        XCTAssertEqual(mark("Saved."), .period)
        XCTAssertEqual(mark("Saved!"), .exclamation)
        XCTAssertEqual(mark("Delete?"), .question)
        XCTAssertEqual(mark("Loading…"), .ellipsis)
        XCTAssertEqual(mark("Loading..."), .ellipsis)
        XCTAssertEqual(mark("Loading...."), .ellipsis)
        XCTAssertEqual(mark("Wait.."), .period)
        XCTAssertEqual(mark("Name:"), .colon)
        XCTAssertEqual(mark("one;"), .semicolon)
        XCTAssertEqual(mark("one,"), .comma)
        XCTAssertEqual(mark("Really?!"), .exclamation)
        XCTAssertEqual(mark("写真を削除しますか？"), .question)
        XCTAssertEqual(mark("完了。"), .period)
        XCTAssertNil(mark("Saved"))
        XCTAssertNil(mark("Saved! 🎉"))
        XCTAssertNil(mark(""))
        XCTAssertNil(mark("   "))
        XCTAssertNil(mark("the users’"))
    }

    func testEndingMarkLooksPastWhitespaceAndClosingQuotes() {
        XCTAssertEqual(mark("Saved.  \n"), .period)
        XCTAssertEqual(mark("Tap “Done.”"), .period)
        XCTAssertEqual(mark("Delete ‘Work’?"), .question)
        XCTAssertEqual(mark("(Optional.)"), .period)
        XCTAssertEqual(mark("Is it \"OK?\" "), .question)
    }

    func testQuestions() {
        XCTAssertTrue(TextSlice.with("Delete this contact?") { $0.isQuestion })
        XCTAssertTrue(TextSlice.with("Sync failed. Retry now?") { $0.isQuestion })
        XCTAssertTrue(TextSlice.with("Удалить контакт?") { $0.isQuestion })
        XCTAssertFalse(TextSlice.with("Why? Because.") { $0.isQuestion })
        XCTAssertFalse(TextSlice.with("") { $0.isQuestion })
        XCTAssertFalse(TextSlice.with("?!🎉") { $0.isQuestion })
    }

    func testEndsWithPeriod() {
        XCTAssertTrue(TextSlice.with("Your file was saved.") { $0.endsWithPeriod })
        XCTAssertFalse(TextSlice.with("Connecting...") { $0.endsWithPeriod })
        XCTAssertFalse(TextSlice.with("Connecting") { $0.endsWithPeriod })
    }

    func testSentenceCount() {
        XCTAssertEqual(sentences(""), 0)
        XCTAssertEqual(sentences("🎉"), 0)
        XCTAssertEqual(sentences("Unable to Download Item"), 1)
        XCTAssertEqual(sentences("Your file was saved."), 1)
        XCTAssertEqual(sentences("Sync failed. Try again later."), 2)
        XCTAssertEqual(sentences("Sync failed! Try again? Or not…"), 3)
        XCTAssertEqual(sentences("He said “stop.” Then left."), 2)
        XCTAssertEqual(sentences("Version 2.0 is out."), 1)
        XCTAssertEqual(sentences("Visit example.com today."), 1)
        XCTAssertEqual(sentences("Done.Next"), 1)
        XCTAssertEqual(sentences("Saved. 🎉"), 1)
        XCTAssertEqual(sentences("保存しました。 次へ"), 2)
    }

    func testTrimmingEndingPunctuation() {
        XCTAssertEqual(TextSlice.with("  Error!!  ") { $0.trimmingEndingPunctuation.string }, "Error")
        XCTAssertEqual(TextSlice.with("Warning…") { $0.trimmingEndingPunctuation.string }, "Warning")
        XCTAssertEqual(TextSlice.with("Error: ") { $0.trimmingEndingPunctuation.string }, "Error")
        XCTAssertEqual(TextSlice.with("Really ?!") { $0.trimmingEndingPunctuation.string }, "Really")
        XCTAssertEqual(TextSlice.with("Delete it") { $0.trimmingEndingPunctuation.string }, "Delete it")
        XCTAssertEqual(TextSlice.with("...") { $0.trimmingEndingPunctuation.string }, "")
        XCTAssertEqual(TextSlice.with("") { $0.trimmingEndingPunctuation.string }, "")
    }

    func testTrimmedAndBlank() {
        XCTAssertTrue(TextSlice.with(" \u{00A0}\u{2003}\n") { $0.isBlank })
        XCTAssertTrue(TextSlice.empty.isBlank)
        XCTAssertFalse(TextSlice.with(" . ") { $0.isBlank })
        XCTAssertEqual(TextSlice.with("\u{00A0} Hi there \n") { $0.trimmed.string }, "Hi there")
        XCTAssertEqual(TextSlice.with("   ") { $0.trimmed.count }, 0)
    }

    /// The ASCII fast path of `trimmed` and the walk over every scalar agree, edges of every kind
    /// (ASCII and Unicode whitespace, letters, a curly quote, a byte that is not UTF-8).
    func testTrimmedAgreesWithTheScalarWalk() {
        let edges: [[UInt8]] = [
            [], [0x20], [0x09], [0x0A, 0x0D], [0x0B, 0x0C], [0xC2, 0xA0], [0xE2, 0x80, 0x83],
            [0xE3, 0x80, 0x80], [0xC2, 0x85], [0x41], [0x2E], [0xE2, 0x80, 0x9C], [0xFF], [0xC3],
        ]
        let middles: [[UInt8]] = [[], Array("Hi there".utf8), [0x20], Array("é".utf8), [0xC2, 0xA0]]
        for lead in edges {
            for middle in middles {
                for tail in edges {
                    let bytes = lead + middle + tail
                    let (fast, walked) = bytes.withUnsafeBufferPointer { buffer in
                        let slice = TextSlice(buffer)
                        return (Array(slice.trimmed.bytes), Array(slice.trimmedByScalars.bytes))
                    }
                    XCTAssertEqual(fast, walked, "\(bytes)")
                }
            }
        }
    }
}
