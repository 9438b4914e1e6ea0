import XCTest

/// The two modules judged end to end: streams written here, run through the
/// real `modalwatch check` (loader, engine, modules), in each edition.
final class EditionCheckRunTests: XCTestCase {
    private static let start =
        #"{"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.contacts","device":"phone"}"#

    /// A stream: a session start, then `lines`.
    private func stream(_ lines: String...) -> String {
        ([Self.start] + lines).joined(separator: "\n") + "\n"
    }

    /// The rules of the two modules that fire on `events` in `edition`, sorted.
    private func rules(
        _ events: String,
        _ edition: String,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> [String] {
        try CheckRun.run(events, edition: edition, file: file, line: line).contentViolations.map(\.rule).sorted()
    }

    // MARK: well-made alerts and sheets raise nothing in the edition they follow

    func testDeleteContactAlertCurrentStyleRaisesNothingInCurrent() throws {
        let events = stream(
            #"{"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"button","label":"Delete Contact","destructive":true}"#,
            #"{"v":1,"type":"alert.presented","session":"S1","ts":1732290001200,"id":"a1","title":"Delete this contact?","message":"It will be removed from all devices.","buttons":[{"title":"Cancel","style":"cancel","preferred":true},{"title":"Delete","style":"destructive"}]}"#,
            #"{"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a1","button":1,"via":"button"}"#
        )
        XCTAssertEqual(try rules(events, "current"), [])
        // The same alert in the older editions: Cancel belongs on the right of a destructive button.
        XCTAssertEqual(try rules(events, "ios7"), ["alert-cancel-position"])
        XCTAssertEqual(try rules(events, "2009"), ["alert-cancel-position"])
    }

    func testDeleteContactAlertOlderStyleRaisesNothingIn2009AndIos7() throws {
        let events = stream(
            #"{"v":1,"type":"alert.presented","session":"S1","ts":1732290001200,"id":"a1","title":"Delete this contact?","message":null,"buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}"#,
            #"{"v":1,"type":"app.background","session":"S1","ts":1732290003000}"#,
            #"{"v":1,"type":"alert.dismissed","session":"S1","ts":1732290003000,"id":"a1","button":1,"via":"background"}"#
        )
        XCTAssertEqual(try rules(events, "2009"), [])
        XCTAssertEqual(try rules(events, "ios7"), [])
        XCTAssertEqual(try rules(events, "current"), ["alert-cancel-position"])
    }

    func testBenignAlertsRaiseNothingInTheEditionTheyFollow() throws {
        let titleStyle = stream(
            #"{"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Storage Almost Full","message":"Manage storage in Settings.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Settings"}]}"#
        )
        XCTAssertEqual(try rules(titleStyle, "ios7"), [])
        XCTAssertEqual(try rules(titleStyle, "2009"), [])
        XCTAssertEqual(try rules(titleStyle, "current"), ["alert-title-style"])
        let sentenceStyle = stream(
            #"{"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Storage almost full","message":"Manage storage in Settings.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Settings"}]}"#
        )
        XCTAssertEqual(try rules(sentenceStyle, "current"), [])
        XCTAssertEqual(try rules(sentenceStyle, "ios7"), ["alert-title-style"])
    }

    func testShareSheetWithCancelLastRaisesNothingInAnyEdition() throws {
        let events = stream(
            #"{"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}"#,
            #"{"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","background":"default_blue","buttons":[{"title":"Mail"},{"title":"Message"},{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}"#,
            #"{"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290002000,"id":"sh1","button":0,"via":"button"}"#,
            #"{"v":1,"type":"user.action","session":"S1","ts":1732290003000,"control":"toolbar_button","label":"Trash"}"#,
            #"{"v":1,"type":"sheet.presented","session":"S1","ts":1732290003100,"id":"sh2","background":"default_blue","buttons":[{"title":"Delete Message","style":"destructive"},{"title":"Cancel","style":"cancel"}]}"#
        )
        for edition in ["2009", "ios7", "current"] {
            XCTAssertEqual(try rules(events, edition), [], edition)
        }
    }

    func testPadShareSheetInAPopoverRaisesNothingWithoutCancel() throws {
        let events = #"""
            {"v":1,"type":"session.start","session":"P1","ts":1732290000000,"app":"com.example.photos","device":"pad"}
            {"v":1,"type":"user.action","session":"P1","ts":1732290001000,"control":"bar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"P1","ts":1732290001100,"id":"sh1","in_popover":true,"buttons":[{"title":"Mail"},{"title":"Message"}]}
            """#
        XCTAssertEqual(try rules(events, "ios7"), [])
        XCTAssertEqual(try rules(events, "current"), [])
    }

    // MARK: where the editions disagree, both ways

    func testRulesOfOneEditionOnly() throws {
        let events = stream(
            #"{"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Sync error occurred","message":null,"buttons":[{"title":"Not Now","style":"cancel"},{"title":"Retry"}],"text_fields":[{},{},{}]}"#
        )
        XCTAssertEqual(try rules(events, "2009"), ["alert-error-word"])
        XCTAssertEqual(try rules(events, "ios7"), ["alert-text-fields", "alert-title-style"])
        XCTAssertEqual(try rules(events, "current"), ["alert-cancel-label"])
    }

    func testSheetRulesByEdition() throws {
        let events = #"""
            {"v":1,"type":"session.start","session":"P1","ts":1732290000000,"app":"com.example.photos","device":"pad"}
            {"v":1,"type":"user.action","session":"P1","ts":1732290001000,"control":"bar_button","label":"Edit"}
            {"v":1,"type":"sheet.presented","session":"P1","ts":1732290001100,"id":"sh1","title":"Edit","in_popover":true,"background":"black","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Duplicate"},{"title":"Delete","style":"destructive"}]}
            {"v":1,"type":"sheet.dismissed","session":"P1","ts":1732290002000,"id":"sh1","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"P1","ts":1732290003000,"control":"bar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"P1","ts":1732290003100,"id":"sh2","in_popover":false,"background":"blue","buttons":[{"title":"Mail"},{"title":"Cancel","style":"cancel"}]}
            """#
        XCTAssertEqual(
            try rules(events, "2009"),
            ["sheet-background-inconsistent", "sheet-destructive-not-first", "sheet-has-message"]
        )
        XCTAssertEqual(
            try rules(events, "ios7"),
            ["sheet-cancel-in-popover", "sheet-destructive-not-first", "sheet-has-message"]
        )
        XCTAssertEqual(try rules(events, "current"), [])
    }

    func testOnePresentationFiresEachRuleOnce() throws {
        let events = stream(
            #"{"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Error","message":"tap “Yes” or “No”","buttons":[{"title":"Yes"},{"title":"No"},{"title":"Maybe later."}]}"#
        )
        let run = try CheckRun.run(events, edition: "current")
        let found = run.contentViolations.map(\.rule)
        XCTAssertEqual(found.count, Set(found).count, "\(run.contentViolations)")
        XCTAssertEqual(
            found.sorted(),
            [
                "alert-button-instructions", "alert-button-title-format", "alert-button-yes-no",
                "alert-message-style", "alert-title-single-word", "alert-too-many-buttons",
            ]
        )
        XCTAssertTrue(run.contentViolations.allSatisfy { $0.subject == "a1" })
    }
}
