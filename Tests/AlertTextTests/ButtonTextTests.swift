import AlertText
import XCTest

final class ButtonTextTests: XCTestCase {
    private func quotes(_ text: String, _ title: String) -> Bool {
        TextSlice.with(text) { text in TextSlice.with(title) { text.quotes($0) } }
    }

    private func instruction(_ text: String, _ title: String) -> String? {
        TextSlice.with(text) { text in TextSlice.with(title) { text.instruction(naming: $0)?.string } }
    }

    func testQuotedTitlesInEveryKindOfQuote() {
        XCTAssertTrue(quotes("Tap \"Delete\" to remove it.", "Delete"))
        XCTAssertTrue(quotes("Tap “Delete” to remove it.", "Delete"))
        XCTAssertTrue(quotes("Tap ‘Delete’ to remove it.", "Delete"))
        XCTAssertTrue(quotes("Tap 'Delete' to remove it.", "Delete"))
        XCTAssertTrue(quotes("Tippen Sie auf „Löschen“.", "Löschen"))
        XCTAssertTrue(quotes("Touchez « Supprimer ».", "Supprimer"))
        XCTAssertTrue(quotes("Choose “View All” for more.", "View All"))
        XCTAssertTrue(quotes("Choose “Don’t Allow” to stay private.", "Don't Allow"))
    }

    func testQuotedTitlesIgnoreCaseAndPunctuation() {
        XCTAssertTrue(quotes("Press “ok.”", "OK"))
        XCTAssertTrue(quotes("Press “DELETE!”", "Delete"))
    }

    func testQuotationMustBeExactlyTheTitle() {
        XCTAssertFalse(quotes("Choose “Delete All”.", "Delete"))
        XCTAssertFalse(quotes("Choose “Delete”.", "Delete All"))
        XCTAssertFalse(quotes("Allow “Maps” to use your location?", "Allow"))
        XCTAssertFalse(quotes("Tap Delete to remove it.", "Delete"))
        XCTAssertFalse(quotes("Don't tap it, it's Delete.", "Delete"))
        XCTAssertFalse(quotes("Tap “Delete", "Delete"))
        XCTAssertFalse(quotes("Tap “Delete”", ""))
        XCTAssertFalse(quotes("Tap “🎉”", "🎉"))
        XCTAssertFalse(quotes("", "Delete"))
    }

    func testSecondQuotationIsFound() {
        XCTAssertTrue(quotes("“Notes” is full: tap “Manage” to free space.", "Manage"))
        XCTAssertTrue(quotes("Tap \"Keep\" or \"Delete\".", "Delete"))
    }

    func testInstructionVerbsFollowedByATitle() {
        XCTAssertEqual(instruction("Tap Delete to remove the item.", "Delete"), "Tap")
        XCTAssertEqual(instruction("Press the OK button.", "OK"), "Press")
        XCTAssertEqual(instruction("Tap on the View All button.", "View All"), "Tap")
        XCTAssertEqual(instruction("Then CLICK retry.", "Retry"), "CLICK")
        XCTAssertEqual(instruction("Touch Settings.", "Settings"), "Touch")
        XCTAssertEqual(instruction("Choose Cancel to keep it.", "Cancel"), "Choose")
        XCTAssertEqual(instruction("Select “Keep” to keep it.", "Keep"), "Select")
        XCTAssertEqual(instruction("Tippen: tap Löschen.", "löschen"), "tap")
        XCTAssertEqual(instruction("Tap Don’t Allow.", "Don't Allow"), "Tap")
    }

    func testInstructionWithinThreeWordsOnly() {
        XCTAssertEqual(instruction("Tap one two Delete", "Delete"), "Tap")
        XCTAssertNil(instruction("Tap one two three Delete", "Delete"))
        XCTAssertNil(instruction("Tap the big red Delete button", "Delete"))
        XCTAssertNil(instruction("Tap", "Delete"))
        XCTAssertNil(instruction("Delete tap", "Delete"))
        XCTAssertNil(instruction("Tapping Delete removes it.", "Delete"))
        XCTAssertNil(instruction("Tap View to see it all.", "View All"))
        XCTAssertNil(instruction("Tap Delete", ""))
        XCTAssertNil(instruction("Tap 🎉", "🎉"))
        XCTAssertNil(instruction("", "Delete"))
        XCTAssertEqual(
            TextSlice.with("Tap one two three four Delete") { text in
                TextSlice.with("Delete") { text.instruction(naming: $0, within: 5)?.string }
            },
            "Tap"
        )
    }

    func testVerbList() {
        XCTAssertEqual(InstructionVerbs.all.map { "\($0)" }, ["tap", "touch", "click", "press", "choose", "select"])
    }
}

final class ButtonTextBoundsTests: XCTestCase {
    func testNearestVerbIsReturned() {
        TextSlice.with("Tap here or press Delete") { text in
            TextSlice.with("Delete") { XCTAssertEqual(text.instruction(naming: $0)?.string, "press") }
        }
        TextSlice.with("Tap Select All") { text in
            TextSlice.with("Select All") { XCTAssertEqual(text.instruction(naming: $0)?.string, "Tap") }
        }
    }

    func testLongTitlesAreNotLookedFor() {
        let sixteen = Array(repeating: "word", count: 16).joined(separator: " ")
        let seventeen = sixteen + " word"
        TextSlice.with("Tap " + seventeen) { text in
            TextSlice.with(sixteen) { XCTAssertNotNil(text.instruction(naming: $0)) }
            TextSlice.with(seventeen) { XCTAssertNil(text.instruction(naming: $0)) }
        }
    }

    /// The worst a 4 KiB text and 64 buttons of 4 KiB titles can ask: verbs everywhere,
    /// titles that almost match everywhere. It must stay well under a second (debug build).
    func testHostileInstructionSearchStaysCheap() {
        let text = String(repeating: "tap ", count: 1024)
        let almost = (Array(repeating: "tap", count: 15) + ["x"]).joined(separator: " ")
        let huge = String(repeating: "tap ", count: 1023) + "x"
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            TextSlice.with(text) { text in
                for _ in 0..<32 {
                    TextSlice.with(almost) { XCTAssertNil(text.instruction(naming: $0)) }
                    TextSlice.with(huge) {
                        XCTAssertNil(text.instruction(naming: $0))
                        XCTAssertFalse(text.quotes($0))
                    }
                }
            }
        }
        XCTAssertLessThan(elapsed, .seconds(5))
        print("hostile instruction search: \(elapsed)")
    }
}
