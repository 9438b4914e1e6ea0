import XCTest

@testable import DaemonCore

/// What `/healthz` says of the history: healthy while it takes writes or none is kept, the
/// store's last error while it fails.
final class DaemonHealthTests: XCTestCase {
    func testAFailingHistoryIsTheProblemWithItsError() {
        let store = StoreHealth()
        let health = DaemonHealth(store: store)
        XCTAssertNil(health.problem(), "no history kept")
        store.state = .ok
        health.beat()
        XCTAssertNil(health.problem())
        store.state = .failing
        store.lastErrorText = "disk I/O error"
        XCTAssertEqual(health.problem(), "the history is failing: disk I/O error")
        store.state = .ok
        XCTAssertNil(health.problem())
    }
}
