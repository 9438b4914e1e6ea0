import XCTest

final class EventDecodingTestsPlaceholder: XCTestCase {
    func testPlaceholder() {}
}
