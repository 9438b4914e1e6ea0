import AlertText
import XCTest

final class CharacterCountTests: XCTestCase {
    private func count(_ text: String) -> Int { TextSlice.with(text) { $0.characterCount } }

    func testUserPerceivedCharacters() {
        XCTAssertEqual(count(""), 0)
        XCTAssertEqual(count("Delete"), 6)
        XCTAssertEqual(count("Löschen"), 7)
        XCTAssertEqual(count("Cafe\u{301}"), 4)
        XCTAssertEqual(count("👨‍👩‍👧‍👦"), 1)
        XCTAssertEqual(count("🇫🇷🇩🇪"), 2)
        XCTAssertEqual(count("👍🏽 ok"), 4)
        XCTAssertEqual(count("a\r\nb"), 3)
        XCTAssertEqual(count("写真を削除"), 5)
    }

    func testHasMoreCharacters() {
        TextSlice.with(String(repeating: "a", count: 40)) { text in
            XCTAssertFalse(text.hasMoreCharacters(than: 40))
            XCTAssertTrue(text.hasMoreCharacters(than: 39))
        }
        // 40 family emoji: 1000 bytes, 280 scalars, 40 characters.
        TextSlice.with(String(repeating: "👨‍👩‍👧‍👦", count: 40)) { text in
            XCTAssertEqual(text.count, 1000)
            XCTAssertEqual(text.scalarCount, 280)
            XCTAssertFalse(text.hasMoreCharacters(than: 40))
            XCTAssertTrue(text.hasMoreCharacters(than: 39))
        }
        // 41 decomposed é: 123 bytes, 82 scalars, 41 characters.
        TextSlice.with(String(repeating: "e\u{301}", count: 41)) { text in
            XCTAssertTrue(text.hasMoreCharacters(than: 40))
            XCTAssertFalse(text.hasMoreCharacters(than: 41))
        }
        XCTAssertFalse(TextSlice.empty.hasMoreCharacters(than: 0))
    }
}
