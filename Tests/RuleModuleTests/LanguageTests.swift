import Foundation
import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// The built-in rules on translated alerts (rules.md, "Languages"): an English rule skipped and
/// counted, the language's Cancel, Yes and No, titles without spaces, other scripts' punctuation,
/// the leading button of a right-to-left alert, and the locale on the violation.
final class LanguageTests: XCTestCase {
    private struct Run {
        let pipeline: EventPipeline
        let output: CollectingOutput

        func rules(_ subject: String? = nil) -> [String] {
            output.violations.filter { subject == nil || $0.object["subject"] as? String == subject }.map(\.rule)
                .sorted()
        }

        func violation(_ rule: String) -> [String: Any]? { output.violations(of: rule).first?.object }
    }

    private func run(_ lines: [String], edition: Edition = .current) -> Run {
        let output = CollectingOutput()
        let pipeline = EventPipeline(
            catalog: BuiltinCatalog.load(),
            configuration: EngineConfiguration(defaultEdition: edition),
            output: output
        )
        for line in lines {
            var text = line
            text.withUTF8 { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 0) }
        }
        XCTAssertEqual(pipeline.eventsRejected, 0, "\(output.diagnostics.map(\.detail))")
        return Run(pipeline: pipeline, output: output)
    }

    private static func start(_ locale: String? = nil) -> String {
        #"{"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail""#
            + (locale.map { #","locale":"\#($0)""# } ?? "") + "}"
    }

    private static func alert(_ id: String, _ ts: Int, _ fields: String) -> String {
        #"{"v":1,"type":"alert.presented","session":"S1","ts":\#(1_732_290_000_000 + ts),"id":"\#(id)",\#(fields)}"#
    }

    func testAGermanAbbrechenIsTheCancelButton() {
        let german = run([
            Self.start("de_DE"),
            Self.alert(
                "a1",
                1000,
                #""title":"Foto löschen?","message":"Es wird von allen Geräten entfernt.","buttons":[{"title":"Abbrechen"},{"title":"Löschen","style":"destructive"}]"#
            ),
        ])
        XCTAssertEqual(german.rules(), [], "Abbrechen cancels: no destructive-without-cancel, no cancel-label")
        let english = run([
            Self.start(),
            Self.alert(
                "a1",
                1000,
                #""title":"Foto löschen?","message":"Es wird von allen Geräten entfernt.","buttons":[{"title":"Abbrechen"},{"title":"Löschen","style":"destructive"}]"#
            ),
        ])
        XCTAssertTrue(
            english.rules().contains("alert-destructive-without-cancel"),
            "without a locale, only Cancel cancels"
        )
    }

    func testAnEnglishRuleIsSkippedOnAGermanAlertAndCounted() {
        let lines = [
            Self.start("de-DE"),
            Self.alert(
                "a1",
                1000,
                #""title":"Ihr Konto Wurde Gesperrt","message":"Bitte melden Sie sich erneut an.","buttons":[{"title":"Abbrechen","style":"cancel"},{"title":"Anmelden"}]"#
            ),
        ]
        let german = run(lines)
        XCTAssertFalse(german.rules().contains("alert-title-style"), "\(german.rules())")
        XCTAssertEqual(german.pipeline.engine.languagesSkipped["alert-title-style"]?["de"], 1)
        XCTAssertEqual(german.pipeline.engine.languagesSkipped["alert-pronoun"]?["de"], 1)
        XCTAssertNil(german.pipeline.engine.languagesSkipped["alert-cancel-label"], "localized: judged")
        XCTAssertNil(
            german.pipeline.engine.languagesSkipped["alert-button-instructions"],
            "localized: its quotations judged"
        )
        let english = run(lines.map { $0.replacingOccurrences(of: #","locale":"de-DE""#, with: "") })
        XCTAssertTrue(english.rules().contains("alert-title-style"), "no locale, Latin script: judged as English")
    }

    func testUndeterminedNonLatinTextIsNotJudgedByEnglishRules() {
        let found = run([
            Self.start(),
            Self.alert(
                "a1",
                1000,
                #""title":"写真を削除しますか？","message":"この操作は取り消せません","buttons":[{"title":"キャンセル","style":"cancel"},{"title":"削除","style":"destructive"}]"#
            ),
        ])
        XCTAssertEqual(found.pipeline.engine.languagesSkipped["alert-title-style"]?["und"], 1)
        XCTAssertFalse(found.rules().contains("alert-title-style"))
        XCTAssertTrue(found.rules().contains("alert-message-style"), "no ending mark: localized, judged by its script")
        XCTAssertEqual(
            found.violation("alert-message-style")?["locale"] as? String,
            nil,
            "undetermined: no locale field"
        )
    }

    func testAJapaneseTitleIsNotASingleWordAndItsPeriodIsWhole() {
        let found = run([
            Self.start("ja-JP"),
            Self.alert("a1", 1000, #""title":"接続できません","message":"申し訳ありません。","buttons":[{"title":"OK"}]"#),
            Self.alert("a2", 2000, #""title":"エラー","message":"サーバーに接続できません","buttons":[{"title":"OK"}]"#),
        ])
        XCTAssertEqual(found.rules("a1"), ["alert-single-button"])
        XCTAssertEqual(found.rules("a2"), ["alert-message-style", "alert-single-button", "alert-title-single-word"])
        let style = found.violation("alert-message-style")
        XCTAssertEqual((style?["evidence"] as? [String: Any])?["suggested_message"] as? String, "サーバーに接続できません。")
        XCTAssertEqual(style?["locale"] as? String, "ja-JP")
    }

    func testTheArabicQuestionMarkEndsAMessage() {
        let found = run([
            Self.start("ar-SA"),
            Self.alert(
                "a1",
                1000,
                #""title":"حذف الصورة","message":"هل تريد حذف هذه الصورة؟","buttons":[{"title":"إلغاء","style":"cancel"},{"title":"حذف","style":"destructive"}]"#
            ),
        ])
        XCTAssertFalse(found.rules().contains("alert-message-style"), "\(found.rules())")
        XCTAssertEqual(found.rules(), [])
    }

    func testARightToLeftAlertIsJudgedAsItsLeftToRightOriginal() {
        // Leading to trailing: the Arabic alert's Cancel leads (it shows on the right), as the
        // English original's leads on the left.
        for edition in [Edition.edition2009, .ios7, .current] {
            let english = run(
                [
                    Self.start("en-US"),
                    Self.alert(
                        "a1",
                        1000,
                        #""title":"Delete this photo?","message":"It is removed from all devices.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete"}]"#
                    ),
                ],
                edition: edition
            )
            let arabic = run(
                [
                    Self.start("ar-SA"),
                    Self.alert(
                        "a1",
                        1000,
                        #""title":"حذف هذه الصورة؟","message":"ستتم إزالتها من جميع الأجهزة.","buttons":[{"title":"إلغاء","style":"cancel"},{"title":"حذف"}]"#
                    ),
                ],
                edition: edition
            )
            XCTAssertEqual(
                english.rules().contains("alert-cancel-position"),
                arabic.rules().contains("alert-cancel-position"),
                edition.name
            )
            let swapped = run(
                [
                    Self.start("ar-SA"),
                    Self.alert(
                        "a1",
                        1000,
                        #""title":"حذف هذه الصورة؟","message":"ستتم إزالتها من جميع الأجهزة.","buttons":[{"title":"حذف"},{"title":"ألغِ"}]"#
                    ),
                ],
                edition: .current
            )
            XCTAssertTrue(
                swapped.rules().contains("alert-cancel-position"),
                "the default-style ألغِ (the table's Arabic Cancel) trails: on the wrong side"
            )
        }
    }

    func testThePresentationsLocaleOverridesTheSessions() {
        let found = run([
            Self.start("de-DE"),
            Self.alert(
                "a1",
                1000,
                #""locale":"fr-FR","title":"Supprimer la photo ?","message":"Elle sera supprimée.","buttons":[{"title":"Cancel","style":"cancel"},{"title":"Supprimer","style":"destructive"}]"#
            ),
            Self.alert(
                "a2",
                2000,
                #""title":"Foto löschen?","message":"Es wird entfernt.","buttons":[{"title":"Abbrechen"},{"title":"Löschen","style":"destructive"}]"#
            ),
            Self.alert(
                "a3",
                3000,
                #""locale":"fr-FR","title":"Supprimer la photo ?","message":"Elle sera supprimée.","buttons":[{"title":"Abbrechen"},{"title":"Supprimer","style":"destructive"}]"#
            ),
        ])
        let label = found.violation("alert-cancel-label")
        XCTAssertEqual(label?["locale"] as? String, "fr-FR")
        XCTAssertEqual(label?["suggestion"] as? String, "Title the cancel button “Annuler” instead of “Cancel”")
        XCTAssertEqual(found.rules("a2"), [], "the session's German: Abbrechen cancels")
        XCTAssertTrue(
            found.rules("a3").contains("alert-destructive-without-cancel"),
            "in French, Abbrechen does not cancel"
        )
    }

    func testAnUnknownTranslationOfCancelIsSkippedAndCounted() {
        let found = run([
            Self.start("cs-CZ"),
            Self.alert(
                "a1",
                1000,
                #""title":"Smazat fotku?","message":"Bude odstraněna ze všech zařízení.","buttons":[{"title":"Odvolat","style":"cancel"},{"title":"Smazat","style":"destructive"}]"#
            ),
            Self.alert(
                "a2",
                2000,
                #""title":"Smazat fotku?","message":"Bude odstraněna ze všech zařízení.","buttons":[{"title":"Ne","style":"cancel"},{"title":"Smazat","style":"destructive"}]"#
            ),
        ])
        XCTAssertEqual(found.rules("a1"), [], "Odvolat: an app's own translation, not judged")
        XCTAssertEqual(found.pipeline.engine.languagesSkipped["alert-cancel-label"]?["cs"], 1)
        XCTAssertTrue(found.rules("a2").contains("alert-cancel-label"), "Ne (No) is recognizably not Cancel")
    }

    func testARestyledTitleLosesItsWideEndingPeriodWhole() {
        // An English alert whose title ends with the ideographic full stop (three bytes).
        let found = run([
            Self.start("en-US"),
            Self.alert(
                "a1",
                1000,
                #""title":"Unable to connect。","message":"Try again later.","buttons":[{"title":"OK"}]"#
            ),
        ])
        let style = found.violation("alert-title-style")
        XCTAssertEqual((style?["evidence"] as? [String: Any])?["suggested_title"] as? String, "Unable to connect")
        XCTAssertEqual(style?["suggestion"] as? String, "Write the title as “Unable to connect”")
    }

    func testEnglishStreamsCarryNoLocale() {
        let found = run([
            Self.start(),
            Self.alert("a1", 1000, #""title":"Error","message":"Something went wrong","buttons":[{"title":"OK"}]"#),
        ])
        XCTAssertEqual(found.rules(), ["alert-message-style", "alert-single-button", "alert-title-single-word"])
        XCTAssertTrue(found.output.violations.allSatisfy { $0.object["locale"] == nil })
        XCTAssertTrue(found.pipeline.engine.languagesSkipped.isEmpty)
    }
}
