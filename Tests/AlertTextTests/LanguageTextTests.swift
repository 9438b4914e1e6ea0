import ModalwatchABI
import XCTest

@testable import AlertText

/// What the language rules read of a text: other scripts' ending marks, scripts, widths, the
/// standard titles (rules.md, "Languages").
final class LanguageTextTests: XCTestCase {
    private func mark(_ text: String) -> EndingMark? { TextSlice.with(text) { $0.endingMark } }

    func testTheEndingMarksOfOtherScripts() {
        XCTAssertEqual(mark("هل تريد حذف هذه الصورة؟"), .question, "the Arabic question mark")
        XCTAssertEqual(mark("تصویر حذف ہو گئی۔"), .period, "the Urdu full stop")
        XCTAssertEqual(mark("फ़ोटो हटा दी गई।"), .period, "the Devanagari danda")
        XCTAssertEqual(mark("ፎቶው ተሰርዟል።"), .period, "the Ethiopic full stop")
        XCTAssertEqual(mark("Διαγραφή\u{37E}"), .question, "the Greek question mark U+037E")
        XCTAssertEqual(mark("完了！"), .exclamation)
        XCTAssertEqual(mark("完了｡"), .period, "the half-width ideographic full stop")
        XCTAssertEqual(mark("نعم،"), .comma)
    }

    func testAMultiByteEndingPeriodIsRemovedWhole() {
        XCTAssertEqual(TextSlice.with("申し訳ありません。") { $0.withoutEndingPeriod }, "申し訳ありません")
        XCTAssertEqual(TextSlice.with("「完了。」") { $0.withoutEndingPeriod }, "「完了」", "the closing bracket kept")
        XCTAssertEqual(TextSlice.with("फ़ोटो हटा दी गई।") { $0.withoutEndingPeriod }, "फ़ोटो हटा दी गई")
        XCTAssertEqual(TextSlice.with("Tap “Done.”") { $0.withoutEndingPeriod }, "Tap “Done”")
        XCTAssertEqual(TextSlice.with("Saved") { $0.withoutEndingPeriod }, "Saved")
        XCTAssertEqual(TextSlice.with("Loading...") { $0.withoutEndingPeriod }, "Loading...")
    }

    func testTheTrimmedTitleLosesWholeMarks() {
        XCTAssertEqual(TextSlice.with("エラー！") { $0.trimmingEndingPunctuation.string }, "エラー")
        XCTAssertEqual(TextSlice.with("خطأ؟") { $0.trimmingEndingPunctuation.string }, "خطأ")
    }

    func testScripts() {
        XCTAssertEqual(WritingScript.of("a"), .latin)
        XCTAssertEqual(WritingScript.of("é"), .latin)
        XCTAssertEqual(WritingScript.of("Ж"), .cased)
        XCTAssertEqual(WritingScript.of("ع"), .uncased)
        XCTAssertEqual(WritingScript.of("한"), .uncased)
        XCTAssertEqual(WritingScript.of("漢"), .spaceless)
        XCTAssertEqual(WritingScript.of("カ"), .spaceless)
        XCTAssertEqual(WritingScript.of("ก"), .spaceless)
        XCTAssertNil(WritingScript.of("1"))
        XCTAssertNil(WritingScript.of("。"))
        XCTAssertTrue(TextSlice.with("接続できません") { $0.isMostlyNonLatin })
        XCTAssertTrue(TextSlice.with("接続できません") { $0.isMostlySpaceless })
        XCTAssertTrue(TextSlice.with("Удалить фото?") { $0.isMostlyNonLatin })
        XCTAssertFalse(TextSlice.with("Удалить фото?") { $0.isMostlySpaceless })
        XCTAssertFalse(TextSlice.with("Delete the iCloud photo 写真?") { $0.isMostlyNonLatin }, "mostly Latin")
        XCTAssertFalse(TextSlice.with("404 🎉") { $0.isMostlyNonLatin }, "no letters")
    }

    func testDisplayLengthCountsWideCharactersAsTwo() {
        XCTAssertEqual(TextSlice.with("Delete") { $0.displayLength }, 6)
        XCTAssertEqual(TextSlice.with("削除") { $0.displayLength }, 4)
        XCTAssertEqual(TextSlice.with("삭제") { $0.displayLength }, 4)
        XCTAssertEqual(TextSlice.with("ＯＫ") { $0.displayLength }, 4, "full-width forms")
        XCTAssertEqual(TextSlice.with("e\u{301}🇩🇪") { $0.displayLength }, 2, "graphemes; emoji count one")
        XCTAssertTrue(TextSlice.with("接続できません") { $0.hasGreaterDisplayLength(than: 13) })
        XCTAssertFalse(TextSlice.with("接続できません") { $0.hasGreaterDisplayLength(than: 14) })
        XCTAssertTrue(TextSlice.with("Apple Payの設定") { $0.hasWideCharacters })
        XCTAssertTrue(TextSlice.with("ＯＫ") { $0.hasWideCharacters })
        XCTAssertFalse(TextSlice.with("Délai dépassé 🇩🇪") { $0.hasWideCharacters }, "accents and emoji are not wide")
    }

    func testLanguageSubtagsAndEnglish() {
        func with<R>(_ tag: String?, _ body: (mw_str) -> R) -> R {
            guard var tag else { return body(mw_str(ptr: nil, len: 0)) }
            return tag.withUTF8 {
                body(mw_str(ptr: UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), len: $0.count))
            }
        }
        XCTAssertEqual(with("de-AT") { EventLanguage.subtag(of: $0) }, "de")
        XCTAssertEqual(with(nil) { EventLanguage.subtag(of: $0) }, "und")
        XCTAssertEqual(with("zh-Hans-CN") { EventLanguage.subtag(ofKey: EventLanguage.subtagKey(of: $0)) }, "zh")
        XCTAssertTrue(with("en-GB") { EventLanguage.isEnglish($0) })
        XCTAssertFalse(with("eng") { EventLanguage.isEnglish($0) })
        XCTAssertFalse(with("de") { EventLanguage.isEnglish($0) })
        XCTAssertTrue(with("de-DE") { tag in with("Abbrechen") { EventLanguage.isCancelTitle($0, tag) } })
        XCTAssertTrue(with("de-DE") { tag in with("CANCEL") { EventLanguage.isCancelTitle($0, tag) } })
        XCTAssertFalse(with(nil) { tag in with("Abbrechen") { EventLanguage.isCancelTitle($0, tag) } })
        XCTAssertTrue(with("ja-JP") { tag in with("キャンセル") { EventLanguage.isCancelTitle($0, tag) } })
    }

    func testTheTitlesOfATagAreForLanguages() {
        let tags =
            StandardTitles.languages + [
                "de-AT", "fr-CA", "zh-TW", "zh-CN", "zh", "pt", "pt-AO", "sr-Latn-RS", "sr", "iw", "nb-NO", "tlh",
                "en-GB",
            ]
        for tag in tags {
            var bytes = tag
            let found = bytes.withUTF8 {
                EventLanguage.titles(
                    mw_str(ptr: UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), len: $0.count)
                )
            }
            let expected = tag.lowercased().hasPrefix("en") ? nil : StandardTitles.forLanguage(tag)
            XCTAssertEqual(found?.language, expected?.language, tag)
        }
    }

    /// Without a tag, `isJudgedAsEnglish` decides from the bytes when it can: always as the
    /// letters' scripts do (an English text with curly quotes, a translated one, mixed ones).
    func testUndeterminedTextsAreJudgedAsEnglishExactlyWhenTheirLettersAreMostlyLatin() {
        let cases: [(title: String, buttons: [String], english: Bool)] = [
            ("You’re offline", ["OK"], true),
            ("“Photos” can’t be opened…", ["Cancel", "Open"], true),
            ("ネットワークに接続できません", ["OK"], false),
            ("ネット", ["Cancel", "Retry"], true),
            ("Отмена", ["OK"], false),
            ("Отмена", ["Cancel"], true),
            ("Zap失敗", ["OK"], true),
            ("Zap失敗しました", ["OK"], false),
            ("Löschen?", ["Abbrechen", "Löschen"], true),
            ("حذف الملف؟", ["إلغاء", "OK"], false),
            ("\u{7F}\u{7F}", [], true),
            ("", [], true),
        ]
        for (title, buttons, english) in cases {
            let judged = withEvent(title: title, buttons: buttons) {
                EventLanguage.isJudgedAsEnglish(mw_str(ptr: nil, len: 0), $0)
            }
            let classified = withEvent(title: title, buttons: buttons) {
                !EventLanguage.letterScripts(of: $0).isMostlyNonLatin
            }
            XCTAssertEqual(judged, english, title)
            XCTAssertEqual(judged, classified, title)
        }
    }

    private func withEvent<T>(title: String, buttons: [String], _ body: (UnsafePointer<mw_event>) -> T) -> T {
        let texts = ([title] + buttons).map { Array($0.utf8) }
        let pointers = texts.map { bytes -> UnsafeMutablePointer<CChar> in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            return pointer
        }
        defer { pointers.forEach { $0.deallocate() } }
        let str = { (index: Int) in mw_str(ptr: UnsafePointer(pointers[index]), len: texts[index].count) }
        var buttonValues = (1..<texts.count).map { mw_button(title: str($0), style: 0, preferred: 0) }
        var event = mw_event()
        event.title = str(0)
        return buttonValues.withUnsafeMutableBufferPointer { buffer in
            event.buttons = UnsafePointer(buffer.baseAddress)
            event.button_count = UInt32(buffer.count)
            return withUnsafePointer(to: &event) { body($0) }
        }
    }
}
