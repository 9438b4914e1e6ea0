import AlertText
import XCTest

/// Words of scripts written without spaces, by ICU's dictionaries.
final class DictionaryWordsTests: XCTestCase {
    private func words(_ text: String, upTo limit: Int = 10) -> Int? {
        TextSlice.with(text) { $0.dictionaryWordCount(upTo: limit) }
    }

    func testJapaneseWordsAreTheDictionarysNotTheCharacters() {
        XCTAssertEqual(words("エラー"), 1)
        XCTAssertEqual(words("プレイリスト"), 1)
        XCTAssertEqual(words("ログアウト"), 1)
        XCTAssertGreaterThan(words("ネットワークに接続できません")!, 1)
        XCTAssertGreaterThan(words("接続できません")!, 1)
    }

    func testChineseWords() {
        XCTAssertEqual(words("错误"), 1)
        XCTAssertEqual(words("錯誤"), 1)
        XCTAssertGreaterThan(words("导入失败")!, 1)
    }

    func testThaiWords() {
        XCTAssertEqual(words("แก้ไข"), 1)
        XCTAssertGreaterThan(words("ออกจากระบบ")!, 1)
    }

    func testMixedScriptsPunctuationAndSymbolsAreCountedAsWordsOrNot() {
        XCTAssertEqual(words("Zap失敗"), 2)
        XCTAssertEqual(words("エラー！"), 1, "punctuation is not a word")
        XCTAssertEqual(words("⚠️ エラー"), 1, "an emoji is not a word")
        XCTAssertEqual(words("404 エラー"), 2, "digits are a word")
        XCTAssertEqual(words(""), 0)
        XCTAssertEqual(words("。"), 0)
    }

    func testTheCountStopsAtTheLimit() {
        XCTAssertEqual(words("ネットワークに接続できません", upTo: 2), 2)
    }

    func testBytesThatAreNotUTF8AreReadAsReplacementCharacters() {
        let bytes: [UInt8] = [0xE3, 0x82, 0xA8, 0xFF, 0xFE]
        let count = bytes.withUnsafeBufferPointer { TextSlice($0).dictionaryWordCount(upTo: 10) }
        XCTAssertNotNil(count)
    }
}
