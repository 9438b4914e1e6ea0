import XCTest

final class RuleModuleTestsPlaceholder: XCTestCase {
    func testPlaceholder() {}
}
