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
        XCTAssertEqual(pronoun("You’ll lose the changes."), "You’ll")
        XCTAssertEqual(pronoun("If you've saved it, quit."), "you've")
        XCTAssertEqual(pronoun("YOU’D better not"), "YOU’D")
    }

    func testOtherWordsDoNotCount() {
        XCTAssertNil(pronoun("Delete this contact?"))
        XCTAssertNil(pronoun("Do it yourself."))
        XCTAssertNil(pronoun("Mine is here; myself too."))
        XCTAssertNil(pronoun("Mexico, Myanmar, youth"))
        XCTAssertNil(pronoun(""))
        XCTAssertNil(pronoun("🙋"))
    }

    func testPronounList() {
        XCTAssertEqual(
            Pronouns.all.map { "\($0)" },
            ["you", "your", "yours", "you're", "you'll", "you've", "you'd", "me", "my"]
        )
    }
}
