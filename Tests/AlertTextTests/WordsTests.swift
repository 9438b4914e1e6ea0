import AlertText
import XCTest

final class WordsTests: XCTestCase {
    /// The words of `text` as strings.
    private func words(_ text: String) -> [String] {
        TextSlice.with(text) { slice in slice.words.map(\.string) }
    }

    func testPlainWords() {
        XCTAssertEqual(words("Delete this contact?"), ["Delete", "this", "contact"])
        XCTAssertEqual(words("  Sync   failed\tagain\n"), ["Sync", "failed", "again"])
    }

    func testEmptyAndBlankTextHaveNoWords() {
        XCTAssertEqual(words(""), [])
        XCTAssertEqual(words("   \n\t "), [])
        XCTAssertEqual(TextSlice.empty.wordCount, 0)
        XCTAssertNil(TextSlice.empty.firstWord)
    }

    func testOnlyWordIsTheWordOfAOneWordText() {
        XCTAssertEqual(TextSlice.with("Error!") { $0.onlyWord?.string }, "Error")
        XCTAssertEqual(TextSlice.with("  “Can’t” ⚠️ ") { $0.onlyWord?.string }, "Can’t")
        XCTAssertNil(TextSlice.with("Sync failed") { $0.onlyWord })
        XCTAssertNil(TextSlice.with(" … ") { $0.onlyWord })
        XCTAssertNil(TextSlice.empty.onlyWord)
    }

    func testApostrophesStayInsideWords() {
        XCTAssertEqual(words("Can’t connect"), ["Can’t", "connect"])
        XCTAssertEqual(words("Can't connect"), ["Can't", "connect"])
        XCTAssertEqual(words("You’re offline"), ["You’re", "offline"])
        XCTAssertEqual(words("O’Brien’s iPhone"), ["O’Brien’s", "iPhone"])
    }

    func testApostrophesAtWordEndsAreNotPartOfTheWord() {
        XCTAssertEqual(words("the users’ files"), ["the", "users", "files"])
        XCTAssertEqual(words("Delete 'Work'?"), ["Delete", "Work"])
        XCTAssertEqual(words("‘Work’ folder"), ["Work", "folder"])
        XCTAssertEqual(words("' ’ ''"), [])
    }

    func testNonASCIILetters() {
        XCTAssertEqual(words("Éditer la liste"), ["Éditer", "la", "liste"])
        XCTAssertEqual(words("Löschen fehlgeschlagen"), ["Löschen", "fehlgeschlagen"])
        XCTAssertEqual(words("Удалить контакт?"), ["Удалить", "контакт"])
        XCTAssertEqual(words("写真を削除しますか？"), ["写真を削除しますか"])
        XCTAssertEqual(words("हिन्दी पाठ"), ["हिन्दी", "पाठ"])
    }

    func testCombiningMarksStayWithTheirLetter() {
        let decomposed = "Cafe\u{301} ferme\u{301}"
        XCTAssertEqual(words(decomposed), ["Cafe\u{301}", "ferme\u{301}"])
        XCTAssertEqual(TextSlice.with(decomposed) { $0.wordCount }, 2)
    }

    func testDigitsMakeWords() {
        XCTAssertEqual(words("Error 404"), ["Error", "404"])
        XCTAssertEqual(words("Version 2.0.1 is out"), ["Version", "2", "0", "1", "is", "out"])
    }

    func testPunctuationAndSymbolsSeparateWords() {
        XCTAssertEqual(words("Wi-Fi"), ["Wi", "Fi"])
        XCTAssertEqual(words("save/restore"), ["save", "restore"])
        XCTAssertEqual(words("A+B=C"), ["A", "B", "C"])
        XCTAssertEqual(words("#1 (best)"), ["1", "best"])
    }

    func testEmojiAreNeverWords() {
        XCTAssertEqual(words("🎉"), [])
        XCTAssertEqual(words("Done ✅"), ["Done"])
        XCTAssertEqual(words("👨‍👩‍👧‍👦 Family"), ["Family"])
        XCTAssertEqual(words("🇫🇷 France"), ["France"])
        XCTAssertEqual(words("👍🏽ok"), ["ok"])
        XCTAssertEqual(words("Press 3️⃣ now"), ["Press", "now"])
        XCTAssertEqual(words("ℹ️ Info"), ["Info"])
        XCTAssertEqual(words("🅰 team"), ["team"])
        XCTAssertEqual(words("🎉Party🎉time"), ["Party", "time"])
    }

    func testWordIndexesAndOffsets() {
        TextSlice.with("  Tap Done") { slice in
            let all = Array(slice.words)
            XCTAssertEqual(all.map(\.index), [0, 1])
            XCTAssertEqual(all.map(\.offset), [2, 6])
        }
    }

    func testHasMoreWords() {
        TextSlice.with("View All Items") { slice in
            XCTAssertTrue(slice.hasMoreWords(than: 2))
            XCTAssertFalse(slice.hasMoreWords(than: 3))
            XCTAssertEqual(slice.wordCount, 3)
        }
        XCTAssertFalse(TextSlice.empty.hasMoreWords(than: 0))
    }

    func testInvalidUTF8IsReadAsReplacementCharacters() {
        let bytes: [UInt8] = [0x4F, 0x4B, 0x20, 0xFF, 0xC3, 0x28, 0x20, 0xE2, 0x80, 0x20, 0x79, 0x65, 0x73, 0xF0, 0x9F]
        bytes.withUnsafeBufferPointer { buffer in
            let slice = TextSlice(buffer)
            XCTAssertEqual(slice.words.map(\.string), ["OK", "yes"])
            XCTAssertEqual(slice.scalarCount, 15)
        }
    }

    func testCaseInsensitiveComparison() {
        TextSlice.with("YOU’RE Löschen ΣΊΣΥΦΟΣ") { slice in
            let all = Array(slice.words)
            XCTAssertTrue(all[0].equals("you're"))
            XCTAssertFalse(all[0].equals("you"))
            TextSlice.with("löschen σίσυφος") { other in
                let lower = Array(other.words)
                XCTAssertTrue(all[1].equals(lower[0]))
                XCTAssertTrue(lower[0].equals(all[1]))
                XCTAssertFalse(all[1].equals(lower[1]))
            }
        }
        TextSlice.with("Can’t can't cant") { slice in
            let all = Array(slice.words)
            XCTAssertTrue(all[0].equals(all[1]))
            XCTAssertFalse(all[0].equals(all[2]))
        }
    }
}
