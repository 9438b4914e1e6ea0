import XCTest

final class AlertTextTestsPlaceholder: XCTestCase {
    func testPlaceholder() {}
}
