import AlertText
import XCTest

final class StandardTitlesTests: XCTestCase {
    private func titles(_ tag: String, file: StaticString = #filePath, line: UInt = #line) throws -> StandardTitles {
        try XCTUnwrap(StandardTitles.forLanguage(tag), "no titles for \(tag)", file: file, line: line)
    }

    func testTheCataloguesTitles() throws {
        let de = try titles("de")
        XCTAssertEqual(de.cancel.first, "Abbrechen")
        XCTAssertEqual(de.ok.first, "OK")
        XCTAssertEqual(de.yes.first, "Ja")
        XCTAssertEqual(de.no.first, "Nein")
        XCTAssertEqual(de.error.first, "Fehler")

        XCTAssertEqual(try titles("fr").cancel.first, "Annuler")
        XCTAssertEqual(try titles("fr").yes, ["Oui"])
        XCTAssertTrue(try titles("fr").ok.contains("Valider"))
        XCTAssertEqual(try titles("ja").cancel.first, "キャンセル")
        XCTAssertEqual(try titles("ja").yes.first, "はい")
        XCTAssertEqual(try titles("ja").no.first, "いいえ")
        XCTAssertEqual(try titles("zh-Hans").cancel.first, "取消")
        XCTAssertEqual(try titles("zh-Hans").ok.first, "确定")
        XCTAssertEqual(try titles("zh-Hant").ok.first, "確定")
        XCTAssertEqual(try titles("zh-Hant").error.first, "錯誤")
        XCTAssertEqual(try titles("ru").cancel, ["Отмена", "Отменить"])
        XCTAssertEqual(try titles("ru").no.first, "Нет")
        XCTAssertEqual(try titles("ko").cancel.first, "취소")
        XCTAssertEqual(try titles("es").ok.first, "Aceptar")
        XCTAssertEqual(try titles("pt-BR").no.first, "Não")
        XCTAssertEqual(try titles("pt-PT").cancel.first, "Cancelar")
        XCTAssertEqual(try titles("sv").cancel.first, "Avbryt")
        XCTAssertEqual(try titles("tr").no.first, "Hayır")
        XCTAssertEqual(try titles("en").cancel, ["Cancel"])
        XCTAssertEqual(try titles("en").error, ["Error"])
    }

    func testEveryCatalogueFamilyContributes() throws {
        // wxWidgets gives the Dutch and Finnish short forms, dialog and newt the Japanese 取消.
        XCTAssertTrue(StandardTitles.matches("Annuleer", try titles("nl").cancel))
        XCTAssertTrue(StandardTitles.matches("Peruuta", try titles("fi").cancel))
        XCTAssertTrue(StandardTitles.matches("取消", try titles("ja").cancel))
        XCTAssertEqual(try titles("ja").cancel.first, "キャンセル")
    }

    func testAnUntranslatedCancelIsNoVariant() throws {
        // wxWidgets' Indonesian catalogue leaves "Cancel" untranslated in one message.
        XCTAssertFalse(StandardTitles.matches("Cancel", try titles("id").cancel))
    }

    func testRightToLeftLanguages() throws {
        let ar = try titles("ar")
        XCTAssertEqual(ar.cancel.first, "ألغِ")
        // Qt and KDE say حسنًا, wxWidgets موافق; GTK's catalogues give نعم (its Yes) for OK too: all are kept.
        XCTAssertEqual(ar.ok, ["حسنًا", "موافق", "نعم"])
        XCTAssertEqual(ar.yes.first, "نعم")
        XCTAssertEqual(ar.no.first, "لا")
        XCTAssertEqual(ar.error.first, "خطأ")

        let he = try titles("he")
        XCTAssertEqual(he.cancel, ["ביטול", "בטל"])
        XCTAssertEqual(he.ok.first, "אישור")
        XCTAssertEqual(he.yes.first, "כן")
        XCTAssertEqual(he.no.first, "לא")
    }

    func testTheTableCarriesTheCommonAppStoreLanguages() throws {
        let languages = StandardTitles.languages
        XCTAssertGreaterThanOrEqual(languages.count, 25)
        XCTAssertEqual(languages, languages.sorted())
        XCTAssertEqual(Set(languages).count, languages.count)
        for tag in [
            "en", "de", "fr", "es", "it", "pt-BR", "pt-PT", "nl", "sv", "da", "nb", "fi", "ru", "pl", "tr", "ar", "he",
            "ja", "ko", "zh-Hans", "zh-Hant", "th", "id", "vi", "uk", "cs", "hu", "el", "ro", "hi", "ms", "ca", "hr",
            "sk",
        ] {
            let entry = try titles(tag)
            XCTAssertEqual(entry.language, tag)
            XCTAssertFalse(entry.error.isEmpty, tag)
        }
        for language in languages {
            let entry = try titles(language)
            XCTAssertEqual(entry.language, language)
            for list in [entry.cancel, entry.ok, entry.yes, entry.no] { XCTAssertFalse(list.isEmpty, language) }
            for title in entry.cancel + entry.ok + entry.yes + entry.no + entry.error {
                XCTAssertFalse(title.isEmpty, language)
                XCTAssertEqual(title, title.trimmingWhitespace, language)
                XCTAssertFalse(title.contains("_") || title.contains("&"), "\(language): mnemonic left in \(title)")
                XCTAssertFalse(
                    title.hasSuffix("…") || title.hasSuffix("...") || title.hasSuffix(":"),
                    "\(language): \(title)"
                )
            }
        }
    }

    func testFallbacks() throws {
        XCTAssertEqual(try titles("de-AT").language, "de")
        XCTAssertEqual(try titles("de_CH").language, "de")
        XCTAssertEqual(try titles("DE").language, "de")
        XCTAssertEqual(try titles("de-DE-u-co-phonebk").language, "de")
        XCTAssertEqual(try titles("en-US").language, "en")
        XCTAssertEqual(try titles("zh_CN").language, "zh-Hans")
        XCTAssertEqual(try titles("zh-SG").language, "zh-Hans")
        XCTAssertEqual(try titles("zh").language, "zh-Hans")
        XCTAssertEqual(try titles("zh-TW").language, "zh-Hant")
        XCTAssertEqual(try titles("zh-HK").language, "zh-Hant")
        XCTAssertEqual(try titles("zh_MO").language, "zh-Hant")
        XCTAssertEqual(try titles("zh-Hant-TW").language, "zh-Hant")
        XCTAssertEqual(try titles("zh-Hans-HK").language, "zh-Hans")
        XCTAssertEqual(try titles("ZH-HANT").language, "zh-Hant")
        XCTAssertEqual(try titles("pt").language, "pt-BR")
        XCTAssertEqual(try titles("pt_BR").language, "pt-BR")
        XCTAssertEqual(try titles("pt-pt").language, "pt-PT")
        XCTAssertEqual(try titles("pt-AO").language, "pt-PT")
        XCTAssertEqual(try titles("pt-Latn-BR").language, "pt-BR")
        XCTAssertEqual(try titles("iw").language, "he")
        XCTAssertEqual(try titles("in").language, "id")
        XCTAssertEqual(try titles("no").language, "nb")
        XCTAssertEqual(try titles("nb-NO").language, "nb")
        XCTAssertEqual(try titles("sr-Latn-RS").language, "sr-Latn")
        XCTAssertEqual(try titles("sr-RS").language, "sr")
        XCTAssertEqual(try titles("ca-ES-valencia").language, "ca-valencia")
    }

    func testUnknownLanguages() {
        XCTAssertNil(StandardTitles.forLanguage("xx"))
        XCTAssertNil(StandardTitles.forLanguage("tlh-Latn"))
        XCTAssertNil(StandardTitles.forLanguage(""))
        XCTAssertNil(StandardTitles.forLanguage("-"))
        XCTAssertNil(StandardTitles.forLanguage("d"))
        XCTAssertNil(StandardTitles.forLanguage("german"))
    }

    func testMatchingIgnoresCaseWhitespaceAndNormalization() throws {
        let de = try titles("de")
        XCTAssertTrue(StandardTitles.matches("Abbrechen", de.cancel))
        XCTAssertTrue(StandardTitles.matches("abbrechen", de.cancel))
        XCTAssertTrue(StandardTitles.matches("ABBRECHEN", de.cancel))
        XCTAssertTrue(StandardTitles.matches("  Abbrechen\n", de.cancel))
        XCTAssertFalse(StandardTitles.matches("Abbrechen?", de.cancel))
        XCTAssertFalse(StandardTitles.matches("Abbruch", de.cancel))
        XCTAssertFalse(StandardTitles.matches("", de.cancel))

        XCTAssertTrue(StandardTitles.matches("ok", try titles("en").ok))
        XCTAssertTrue(StandardTitles.matches("Cancel", try titles("en").cancel))
        XCTAssertFalse(StandardTitles.matches("Cancel", de.cancel))
        XCTAssertFalse(StandardTitles.matches("Cancels", try titles("en").cancel))
        XCTAssertFalse(StandardTitles.matches("Cance", try titles("en").cancel))

        let pt = try titles("pt-BR")
        XCTAssertTrue(StandardTitles.matches("Na\u{303}o", pt.no))  // decomposed ã
        XCTAssertTrue(StandardTitles.matches("NÃO", pt.no))
        XCTAssertTrue(StandardTitles.matches("NA\u{303}O", pt.no))
        XCTAssertTrue(StandardTitles.matches("HAYIR", try titles("tr").no))  // dotless ı uppercases to I
        XCTAssertTrue(StandardTitles.matches("ΑΚΎΡΩΣΗ", try titles("el").cancel))
        XCTAssertTrue(StandardTitles.matches("キャンセル", try titles("ja").cancel))
        XCTAssertTrue(StandardTitles.matches("\u{3000}取消 ", try titles("zh-Hant").cancel))
        XCTAssertTrue(StandardTitles.matches("D’acord", try titles("ca").ok))  // either apostrophe
        XCTAssertFalse(StandardTitles.matches("キャンセル", try titles("ko").cancel))
        XCTAssertFalse(StandardTitles.matches("Ja", []))
    }

    func testEveryVariantMatchesItself() throws {
        for language in StandardTitles.languages {
            let entry = try titles(language)
            for list in [entry.cancel, entry.ok, entry.yes, entry.no, entry.error] {
                for title in list {
                    XCTAssertTrue(StandardTitles.matches(title, list), "\(language): \(title)")
                    XCTAssertTrue(
                        StandardTitles.matches(title.uppercased(), list),
                        "\(language): \(title.uppercased())"
                    )
                    XCTAssertTrue(
                        StandardTitles.matches(title.lowercased(), list),
                        "\(language): \(title.lowercased())"
                    )
                }
            }
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
