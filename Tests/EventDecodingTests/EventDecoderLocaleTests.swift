import EventDecoding
import ModalwatchABI
import XCTest

/// The `locale` field (events.md, "Languages"): BCP 47 syntax checked, normalized, where it belongs.
final class EventDecoderLocaleTests: XCTestCase {
    private let decoder = EventDecoder()

    private func locale(_ tag: String, type: String = "session.start", extra: String = #","app":"a""#) -> String? {
        decoder.event(event(type, #""locale":"\#(tag)""# + extra))?.locale
    }

    func testAppleSpellingAndCaseAreNormalized() {
        XCTAssertEqual(locale("de_DE"), "de-DE")
        XCTAssertEqual(locale("de-DE"), "de-DE")
        XCTAssertEqual(locale("zh-Hans_CN"), "zh-Hans-CN")
        XCTAssertEqual(locale("ZH-hans_cn"), "zh-Hans-CN")
        XCTAssertEqual(locale("pt_br"), "pt-BR")
        XCTAssertEqual(locale("ja"), "ja")
        XCTAssertEqual(locale("es-419"), "es-419")
        XCTAssertEqual(locale("sr-Latn-RS"), "sr-Latn-RS")
        XCTAssertEqual(locale("de-CH-1996"), "de-CH-1996")
        XCTAssertEqual(locale("en-US-u-CA-gregory"), "en-US-u-ca-gregory")
        XCTAssertEqual(locale("en-x-Private"), "en-x-private")
        XCTAssertEqual(locale("zh-yue-HK"), "zh-yue-HK", "an extended language")
    }

    func testEscapedTagsAreNormalizedToo() {
        XCTAssertEqual(locale(#"de\u005fAT"#), "de-AT")
    }

    func testPresentationsCarryTheirOwnLocale() {
        XCTAssertEqual(locale("ar_SA", type: "alert.presented", extra: #","id":"a1""#), "ar-SA")
        XCTAssertEqual(locale("ja-JP", type: "sheet.presented", extra: #","id":"s1""#), "ja-JP")
        XCTAssertEqual(locale("fr-FR", type: "modal.presented", extra: #","id":"m1""#), "fr-FR")
    }

    func testOtherTypesIgnoreIt() {
        XCTAssertNil(locale("de-DE", type: "alert.dismissed", extra: #","id":"a1""#))
        XCTAssertNil(locale("not a tag", type: "user.action", extra: ""), "an unknown field of that type: ignored")
        XCTAssertNil(decoder.event(event("session.start", #""app":"a""#))?.locale, "absent")
    }

    func testMalformedTagsAreBadField() {
        for tag in [
            "", "e", "d3", "x-foo", "de-", "-de", "de--DE", "de DE", "toolongtag", "de-DE-u", "de-x",
            "de-ABCDEFGHI", "ja-JP-", "en-US-US", "de-Latn-Latn", "für",
            String(repeating: "a", count: 3) + String(repeating: "-abcde", count: 6),
        ] {
            let r = decoder.rejection(event("session.start", #""app":"a","locale":"\#(tag)""#))
            XCTAssertEqual(r?.reason, .badField, "'\(tag)': \(r?.detail ?? "accepted")")
            XCTAssertEqual(r?.field, "locale", tag)
        }
        let r = decoder.rejection(event("alert.presented", #""id":"a1","locale":7"#))
        XCTAssertEqual(r?.reason, .badField)
        XCTAssertEqual(r?.detail.contains("must be a string"), true, r?.detail ?? "")
    }

    func testTheNormalizationIsOnePass() {
        let tag = Array("zh-Hant_tw".utf8)
        var out = [UInt8](repeating: 0, count: LocaleTag.maxBytes)
        let n = tag.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { LocaleTag.normalize(t.baseAddress!, t.count, into: $0.baseAddress!) }
        }
        XCTAssertEqual(n, tag.count)
        XCTAssertEqual(String(decoding: out.prefix(n ?? 0), as: UTF8.self), "zh-Hant-TW")
    }
}
