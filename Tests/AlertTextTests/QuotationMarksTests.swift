import AlertText
import XCTest

final class QuotationMarksTests: XCTestCase {
    private func marks(_ tag: String, file: StaticString = #filePath, line: UInt = #line) throws -> QuotationMarks {
        try XCTUnwrap(QuotationMarks.forLanguage(tag), "no marks for \(tag)", file: file, line: line)
    }

    private func quotes(_ text: String, _ title: String, in tag: String) throws -> Bool {
        let marks = try marks(tag)
        return TextSlice.with(text) { text in TextSlice.with(title) { text.quotes($0, between: marks) } }
    }

    private func pairs(_ marks: QuotationMarks) -> [String] {
        marks.pairs.map { String(decoding: $0.opening, as: UTF8.self) + String(decoding: $0.closing, as: UTF8.self) }
    }

    func testTheTableHoldsCLDRsMarksByLanguage() throws {
        XCTAssertEqual(pairs(try marks("de-DE")), ["„“", "‚‘"])
        XCTAssertEqual(pairs(try marks("de_CH")), ["„“", "‚‘"], "de-CH inherits German's marks in this CLDR")
        XCTAssertEqual(pairs(try marks("ja-JP")), ["「」", "『』"])
        XCTAssertEqual(pairs(try marks("zh-TW")), ["「」", "『』"], "Traditional Chinese")
        XCTAssertEqual(pairs(try marks("zh-CN")), ["“”", "‘’"], "Simplified Chinese")
        XCTAssertEqual(pairs(try marks("sv")), ["””", "’’"])
        XCTAssertEqual(pairs(try marks("pl")), ["„”", "«»"], "Polish's closing mark is inherited from root")
        XCTAssertEqual(pairs(try marks("pt")), ["“”", "‘’"], "Portuguese without a region is Brazil's")
        XCTAssertEqual(pairs(try marks("pt-AO")), ["«»", "“”"], "other regions are Portugal's")
        XCTAssertNil(QuotationMarks.forLanguage("en-US"), "English's quotations are the tokenizer's")
        XCTAssertNil(QuotationMarks.forLanguage("x-klingon"))
    }

    func testAQuotationIsExactlyTheTitlesWordsBetweenOnePairsMarks() throws {
        XCTAssertTrue(try quotes("Tippen Sie auf „Löschen“.", "Löschen", in: "de"))
        XCTAssertTrue(try quotes("Tippen Sie auf „löschen.“", "Löschen", in: "de"), "case and punctuation ignored")
        XCTAssertFalse(try quotes("Tippen Sie auf „Alle löschen“.", "Löschen", in: "de"))
        XCTAssertTrue(try quotes("「削除」をタップすると消去されます。", "削除", in: "ja"))
        XCTAssertTrue(
            try quotes("Tryck på ”Radera” för att ta bort den.", "Radera", in: "sv"),
            "one mark opens and closes"
        )
        XCTAssertTrue(try quotes("”Spara” eller ”Radera”?", "Radera", in: "sv"), "the second quotation")
        XCTAssertFalse(try quotes("Tryck på ”Radera för att ta bort den.", "Radera", in: "sv"), "never closed")
        XCTAssertFalse(try quotes("Tippen Sie auf Löschen.", "Löschen", in: "de"))
        XCTAssertFalse(try quotes("„“", "", in: "de"), "a title without words is never quoted")
    }
}
