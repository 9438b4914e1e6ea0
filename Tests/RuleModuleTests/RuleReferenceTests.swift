import Foundation
import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// docs/rules.md is generated from the modules' metadata; this fails when it is stale.
final class RuleReferenceTests: XCTestCase {
    func testDocsRulesMdIsCurrent() throws {
        let catalog = BuiltinCatalog.load()
        let generated = RuleReference(catalog: catalog).markdown()
        let path = BuiltinCatalog.packageRoot.appendingPathComponent("docs/rules.md")
        let committed = try String(contentsOf: path, encoding: .utf8)
        XCTAssertEqual(
            committed,
            generated,
            "docs/rules.md is stale: run `swift build && .build/debug/modalwatch rules --markdown > docs/rules.md`"
        )
    }

    func testEveryRuleHasAnExampleMessage() {
        let markdown = RuleReference(catalog: BuiltinCatalog.load()).markdown()
        for rule in BuiltinCatalog.load().rules {
            XCTAssertTrue(markdown.contains("### \(rule.id)\n"), rule.id)
        }
        let messages = markdown.components(separatedBy: "**Example message**").count - 1
        XCTAssertEqual(messages, BuiltinCatalog.load().rules.count)
    }
}
