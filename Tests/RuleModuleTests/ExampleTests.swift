import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// Every worked example of every built-in rule, in every edition it names,
/// through the real loader and the real engine.
final class ExampleTests: XCTestCase {
    func testEveryExampleComesOutAsDeclared() {
        let catalog = BuiltinCatalog.load()
        XCTAssertFalse(catalog.rules.isEmpty)
        let outcomes = RuleExampleRunner(catalog: catalog).runAll()
        XCTAssertGreaterThan(outcomes.count, 100)
        for outcome in outcomes where !outcome.passed {
            XCTFail(outcome.description)
        }
    }
}
