import AlertText
import XCTest

final class WordShapeTests: XCTestCase {
    private func shapes(_ text: String) -> [WordShape] {
        TextSlice.with(text) { slice in slice.words.map(\.shape) }
    }

    func testShapes() {
        XCTAssertEqual(shapes("delete Delete DELETE"), [.lowercase, .capitalized, .allCaps])
        XCTAssertEqual(shapes("OK I PDF"), [.allCaps, .allCaps, .allCaps])
        XCTAssertEqual(shapes("iCloud FaceTime eBay iOS McDonald’s"), Array(repeating: .innerCapital, count: 5))
        XCTAssertEqual(shapes("3 3D 1st 2024"), [.uncased, .uncased, .uncased, .uncased])
        XCTAssertEqual(shapes("写真 שלום"), [.uncased, .uncased])
    }

    func testShapesOfNonASCIILetters() {
        XCTAssertEqual(shapes("Éditer éditer ÉDITER"), [.capitalized, .lowercase, .allCaps])
        XCTAssertEqual(shapes("Löschen über Straße"), [.capitalized, .lowercase, .capitalized])
        XCTAssertEqual(shapes("Ǆemal ǅemal"), [.capitalized, .capitalized])
        XCTAssertEqual(shapes("Can’t can’t"), [.capitalized, .lowercase])
    }

    func testPassingShapes() {
        XCTAssertFalse(WordShape.lowercase.passesAsCapitalized)
        XCTAssertTrue(WordShape.allCaps.passesAsCapitalized)
        XCTAssertFalse(WordShape.capitalized.passesInSentence)
        XCTAssertTrue(WordShape.innerCapital.passesInSentence)
    }
}
