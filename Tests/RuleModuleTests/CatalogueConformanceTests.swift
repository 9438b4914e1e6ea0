import Foundation
import ModalwatchTesting
import RuleHost
import XCTest

/// Every loaded built-in rule says exactly what spec/rules.md says of it.
final class CatalogueConformanceTests: XCTestCase {
    private var spec: RuleCatalogueSpec!
    private var catalog: RuleCatalog!

    override func setUpWithError() throws {
        let markdown = try String(contentsOf: BuiltinCatalog.rulesSpec, encoding: .utf8)
        spec = RuleCatalogueSpec(markdown: markdown)
        catalog = BuiltinCatalog.load()
    }

    func testTheSpecParses() {
        XCTAssertEqual(spec.entries.count, 44, "rules.md has 6 + 9 + 21 + 8 rules")
        XCTAssertEqual(spec.entries.first { $0.id == "alert-pronoun" }?.languages, "en")
        XCTAssertEqual(spec.entries.first { $0.id == "alert-frequency" }?.parameters, ["limit": 3, "window": 600_000])
        XCTAssertEqual(
            spec.entries.first { $0.id == "alert-dismissed-unread" }?.parameters,
            ["min_read": 1000, "count": 3]
        )
    }

    func testAllFourShippedModulesLoadWithEveryRule() {
        XCTAssertEqual(
            Set(catalog.modules.map(\.name)),
            Set(BuiltinCatalog.shippedModules),
            "failures: \(catalog.failures)"
        )
        XCTAssertTrue(catalog.failures.isEmpty, "\(catalog.failures)")
        XCTAssertEqual(catalog.rules.count, spec.entries.count)
    }

    func testEveryLoadedModuleShipsExactlyItsRules() {
        for module in catalog.modules where BuiltinCatalog.shippedModules.contains(module.name) {
            let expected = Set(spec.entries.filter { $0.module == module.name }.map(\.id))
            XCTAssertEqual(Set(module.rules.map(\.id)), expected, "module \(module.name)")
        }
    }

    func testEveryRuleSaysTheKindOfPresentationItJudgesByTheEventsItWants() {
        let kinds = Dictionary(uniqueKeysWithValues: catalog.rules.map { ($0.id, $0.presentationKind) })
        XCTAssertEqual(kinds["alert-frequency"], .alert)
        XCTAssertEqual(kinds["repeated-alert"], .alert, "whatever its id")
        XCTAssertEqual(kinds["sheet-without-user-action"], .sheet)
        XCTAssertEqual(kinds["modal-depth"], .modal)
        XCTAssertEqual(kinds["modal-frequency"], .some(nil), "alerts, sheets and modal views: no one kind")
        XCTAssertEqual(kinds["modal-nav-depth"], .some(nil), "it wants nav.push: no presentation's event")
        for rule in catalog.rules where !["modal-frequency", "modal-nav-depth"].contains(rule.id) {
            XCTAssertNotNil(rule.presentationKind, rule.id)
        }
    }

    func testEveryRuleHasTheSpecsSeverityEditionsAndParameters() {
        for rule in catalog.rules {
            guard let entry = spec.entries.first(where: { $0.id == rule.id }) else {
                XCTFail("\(rule.id) is not in rules.md")
                continue
            }
            XCTAssertEqual(rule.module, entry.module, rule.id)
            XCTAssertEqual(rule.severity.name, entry.severity, rule.id)
            XCTAssertEqual(rule.editions.map(\.name), entry.editions, rule.id)
            let parameters = Dictionary(uniqueKeysWithValues: rule.parameters.map { ($0.name, $0.defaultValue) })
            XCTAssertEqual(parameters, entry.parameters, rule.id)
            XCTAssertFalse(rule.summary.isEmpty, rule.id)
            XCTAssertFalse(rule.guideline.isEmpty, rule.id)
            XCTAssertFalse(rule.source.isEmpty, rule.id)
            XCTAssertEqual(rule.languages.name, entry.languages, rule.id)
            let revisions = [Self.revisedInV11, Self.revisedInV12, Self.revisedInV13, Self.revisedInV14].filter {
                $0.contains(rule.id)
            }.count
            XCTAssertEqual(rule.rev, 1 + revisions, rule.id)
        }
    }

    /// The rules whose verdicts catalogue v1.2 changes (rules.md, "Revisions"): the rules that name
    /// the cancel button, and the rules of wording, now judged by language.
    private static let revisedInV13: Set<String> = ["alert-title-single-word"]

    /// The rule whose verdicts catalogue v1.4 changes: quotations judged in other languages.
    private static let revisedInV14: Set<String> = ["alert-button-instructions"]

    private static let revisedInV12: Set<String> = [
        "alert-cancel-label", "alert-cancel-position", "alert-destructive-without-cancel",
        "alert-destructive-preferred",
        "alert-background-action", "alert-confirms-user-action", "sheet-missing-cancel", "sheet-cancel-in-popover",
        "sheet-cancel-not-last", "alert-button-yes-no", "alert-error-word", "alert-title-single-word",
        "alert-title-too-long", "alert-message-too-long", "alert-message-style", "alert-button-title-format",
        "alert-pronoun", "alert-title-style", "alert-button-instructions", "alert-button-title-length",
    ]

    /// The rules whose verdicts catalogue v1.1 changes (rules.md, "Revisions"): the pronoun
    /// forms, the sentences of an `ios7` title, and every rule that asks for a cancel button.
    private static let revisedInV11: Set<String> = [
        "alert-pronoun", "alert-title-style", "alert-cancel-label", "alert-cancel-position",
        "alert-destructive-without-cancel", "alert-destructive-preferred", "alert-background-action",
        "alert-confirms-user-action", "sheet-missing-cancel", "sheet-cancel-in-popover", "sheet-cancel-not-last",
    ]

    func testEveryRuleHasATriggeringAndAQuietExample() {
        for rule in catalog.rules {
            XCTAssertTrue(rule.examples.contains { $0.expected > 0 }, "\(rule.id) has no triggering example")
            XCTAssertTrue(rule.examples.contains { $0.expected == 0 }, "\(rule.id) has no non-triggering example")
            for edition in rule.editions {
                XCTAssertTrue(
                    rule.examples.contains { $0.expected > 0 && $0.editions.contains(edition) },
                    "\(rule.id) has no triggering example in \(edition.name)"
                )
            }
        }
    }
}
