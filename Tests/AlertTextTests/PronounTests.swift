import AlertText
import XCTest

final class PronounTests: XCTestCase {
    private func pronoun(_ text: String) -> String? { TextSlice.with(text) { $0.firstPronoun?.string } }

    func testListedPronouns() {
        XCTAssertEqual(pronoun("Are you sure?"), "you")
        XCTAssertEqual(pronoun("Your file is ready."), "Your")
        XCTAssertEqual(pronoun("You're offline."), "You're")
        XCTAssertEqual(pronoun("You’re offline."), "You’re")
        XCTAssertEqual(pronoun("Is this yours?"), "yours")
        XCTAssertEqual(pronoun("Remind Me Later"), "Me")
        XCTAssertEqual(pronoun("MY PHOTOS"), "MY")
        XCTAssertEqual(pronoun("Delete ‘my’ notes"), "my")
    }

    func testOtherWordsDoNotCount() {
        XCTAssertNil(pronoun("Delete this contact?"))
        XCTAssertNil(pronoun("Do it yourself."))
        XCTAssertNil(pronoun("You’ll see."))
        XCTAssertNil(pronoun("Mine is here; myself too."))
        XCTAssertNil(pronoun("Mexico, Myanmar, youth"))
        XCTAssertNil(pronoun(""))
        XCTAssertNil(pronoun("🙋"))
    }

    func testPronounList() {
        XCTAssertEqual(Pronouns.all.map { "\($0)" }, ["you", "your", "you're", "yours", "me", "my"])
    }
}
