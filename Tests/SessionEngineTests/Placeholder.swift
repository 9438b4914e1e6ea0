import XCTest

final class SessionEngineTestsPlaceholder: XCTestCase {
    func testPlaceholder() {}
}
