import AlertText
import XCTest

final class CapitalizationTests: XCTestCase {
    private func title(_ text: String) -> Bool { TextSlice.with(text) { $0.isTitleStyle } }
    private func sentence(_ text: String) -> Bool { TextSlice.with(text) { $0.isSentenceStyle } }
    private func titleNotSentence(_ text: String) -> Bool {
        TextSlice.with(text) { $0.isTitleStyleRatherThanSentenceStyle() }
    }

    func testMinorWordsList() {
        let expected = [
            "a", "an", "the", "and", "but", "or", "nor", "for", "yet", "so", "as", "at", "by", "from", "in", "into",
            "like", "near", "of", "off", "on", "onto", "out", "over", "past", "per", "to", "up", "upon", "via", "with",
        ]
        XCTAssertEqual(MinorWords.all.map { "\($0)" }, expected)
        TextSlice.with("THE Of into Near nearby with within") { slice in
            XCTAssertEqual(slice.words.map(\.isMinor), [true, true, true, true, false, true, false])
        }
    }

    func testTitleStyle() {
        XCTAssertTrue(title("Unable to Download Item"))
        XCTAssertTrue(title("Delete All Photos?"))
        XCTAssertTrue(title("The Item Is in the Trash"))
        XCTAssertTrue(title("Sign In to iCloud"))
        XCTAssertTrue(title("Sign in to iCloud"))
        XCTAssertTrue(title("OK"))
        XCTAssertTrue(title("View All"))
        XCTAssertTrue(title("Can’t Connect to Server"))
        XCTAssertTrue(title("Éditer Über Ölfeld"))
        XCTAssertFalse(title("Éditer la Liste"))  // the minor words are English ones
        XCTAssertTrue(title("Delete 3 Photos"))
        XCTAssertTrue(title("写真を削除"))
        XCTAssertTrue(title(""))
        XCTAssertTrue(title("🎉"))
        XCTAssertFalse(title("Unable to download item"))
        XCTAssertFalse(title("delete"))
        XCTAssertFalse(title("the End"))
        XCTAssertFalse(title("Ok cancel"))
        XCTAssertFalse(title("Löschen fehlgeschlagen"))
        XCTAssertFalse(title("Can’t connect"))
    }

    func testTitleStyleAcceptsQuotedNames() {
        XCTAssertTrue(title("Rename “draft notes”"))
        XCTAssertFalse(title("Rename draft notes"))
    }

    func testTitleStyleChecksEachSentenceStart() {
        XCTAssertTrue(title("Sync Failed. The Server Is Down"))
        XCTAssertFalse(title("Sync Failed. the Server Is Down"))
    }

    func testSentenceStyle() {
        XCTAssertTrue(sentence("Delete this contact?"))
        XCTAssertTrue(sentence("Unable to download item"))
        XCTAssertTrue(sentence("Sign in to iCloud?"))
        XCTAssertTrue(sentence("Save as PDF?"))
        XCTAssertTrue(sentence("Tap OK to continue."))
        XCTAssertTrue(sentence("Can I help?"))
        XCTAssertTrue(sentence("Turn on FaceTime?"))
        XCTAssertTrue(sentence("Turn on Wi-Fi and Bluetooth?"))
        XCTAssertTrue(sentence("Remind me on Monday?"))
        XCTAssertTrue(sentence("Sync failed. Try again later."))
        XCTAssertTrue(sentence("Löschen fehlgeschlagen"))
        XCTAssertTrue(sentence("Can’t connect to the server"))
        XCTAssertTrue(sentence("3 photos will be deleted."))
        XCTAssertTrue(sentence("iCloud storage is full."))
        XCTAssertTrue(sentence(""))
        XCTAssertTrue(sentence("👍"))
        XCTAssertFalse(sentence("Delete All Photos?"))
        XCTAssertFalse(sentence("Sign In to iCloud?"))
        XCTAssertFalse(sentence("delete this contact?"))
        XCTAssertFalse(sentence("Sync failed. try again later."))
        XCTAssertFalse(sentence("Open in Finder?"))
        XCTAssertFalse(sentence("Éditer la Liste?"))
    }

    func testSentenceStyleAcceptsQuotedNames() {
        XCTAssertTrue(sentence("Allow “Maps” to use your location?"))
        XCTAssertTrue(sentence("Delete the album \"Summer Trip\"?"))
        XCTAssertTrue(sentence("Delete ‘Work Notes’?"))
        XCTAssertTrue(sentence("Delete 'Work Notes'?"))
        XCTAssertTrue(sentence("Supprimer « Mes Photos » ?"))
        XCTAssertTrue(sentence("„Neue Notiz“ löschen?"))
        XCTAssertFalse(sentence("Allow Maps to use your location?"))
        XCTAssertFalse(sentence("Delete ‘Work’ Notes?"))
    }

    func testTitleStyleRatherThanSentenceStyle() {
        XCTAssertTrue(titleNotSentence("Unable to Download Item"))
        XCTAssertTrue(titleNotSentence("Delete All Photos?"))
        XCTAssertTrue(titleNotSentence("Sign In To iCloud"))
        XCTAssertTrue(titleNotSentence("Sync Failed. Try Again."))
        XCTAssertFalse(titleNotSentence("Delete All?"))
        XCTAssertFalse(titleNotSentence("Delete this contact?"))
        XCTAssertFalse(titleNotSentence("Sign in to iCloud"))
        XCTAssertFalse(titleNotSentence("Save as PDF"))
        XCTAssertFalse(titleNotSentence("Turn on Wi-Fi?"))
        XCTAssertFalse(titleNotSentence("Delete the 3"))
        XCTAssertTrue(titleNotSentence("Allow “Maps” Access?"))
        XCTAssertFalse(titleNotSentence("Allow “Maps” access?"))
        XCTAssertFalse(titleNotSentence(""))
        XCTAssertFalse(titleNotSentence("🎉 🎉 🎉"))
        XCTAssertTrue(TextSlice.with("Delete All?") { $0.isTitleStyleRatherThanSentenceStyle(minimumWords: 2) })
    }

    func testTextInCapitals() {
        let capitals = { (text: String) in TextSlice.with(text) { $0.isInCapitals } }
        XCTAssertTrue(capitals("CANCEL"))
        XCTAssertTrue(capitals("DELETE ALL"))
        XCTAssertTrue(capitals("SAVE PDF"))
        XCTAssertTrue(capitals("ÉDITER 3 PHOTOS!"))
        XCTAssertFalse(capitals("OK"))
        XCTAssertFalse(capitals("PDF"))
        XCTAssertFalse(capitals("USB ID"))
        XCTAssertFalse(capitals("Save PDF"))
        XCTAssertFalse(capitals("DELETE all"))
        XCTAssertFalse(capitals("CANCEL 1st"))
        XCTAssertFalse(capitals(""))
        XCTAssertFalse(capitals("写真"))
        XCTAssertFalse(title("CANCEL"))
        XCTAssertFalse(title("DELETE ALL"))
        XCTAssertTrue(title("Save PDF"))
        XCTAssertTrue(title("USB ID"))
        XCTAssertFalse(sentence("DELETE THIS PHOTO?"))
        XCTAssertTrue(sentence("OK?"))
        XCTAssertTrue(titleNotSentence("DELETE ALL PHOTOS"))
    }

    func testStartsWithCapital() {
        XCTAssertTrue(TextSlice.with("The file was deleted.") { $0.startsWithCapital })
        XCTAssertTrue(TextSlice.with("“notes” could not open.") { $0.startsWithCapital })
        XCTAssertTrue(TextSlice.with("⚠️ Storage is almost full.") { $0.startsWithCapital })
        XCTAssertTrue(TextSlice.with("3 items failed.") { $0.startsWithCapital })
        XCTAssertTrue(TextSlice.with("iCloud is full.") { $0.startsWithCapital })
        XCTAssertTrue(TextSlice.with("Éditer la liste.") { $0.startsWithCapital })
        XCTAssertTrue(TextSlice.with("") { $0.startsWithCapital })
        XCTAssertFalse(TextSlice.with("the file was deleted.") { $0.startsWithCapital })
        XCTAssertFalse(TextSlice.with("  (éditer) la liste.") { $0.startsWithCapital })
    }
}
