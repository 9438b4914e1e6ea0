import ModalwatchConfig
import XCTest

/// Every endpoint checked by one parser: the same for `--check-config` and a start.
final class EndpointCheckTests: XCTestCase {
    func testTheDefaultsPass() {
        XCTAssertEqual(EndpointCheck.problems(in: DaemonConfiguration()), [])
    }

    func testAnAbstractControlSocketIsRefusedButNotForEvents() {
        var configuration = DaemonConfiguration()
        configuration.control = "ipc://@modalwatch"
        configuration.events = ["ipc://@events"]
        let problems = EndpointCheck.problems(in: configuration)
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].hasPrefix("control: ") && problems[0].contains("abstract"), problems[0])
    }

    func testPortsAndTransportsAreChecked() {
        XCTAssertNotNil(EndpointCheck.problem("tcp://127.0.0.1:70000", role: "publish", binds: true))
        XCTAssertNotNil(EndpointCheck.problem("tcp://127.0.0.1", role: "events", binds: true))
        XCTAssertNotNil(EndpointCheck.problem("tcp://:7450", role: "events", binds: true))
        XCTAssertNotNil(EndpointCheck.problem("tcp://127.0.0.1:*", role: "events_connect", binds: false))
        XCTAssertNotNil(EndpointCheck.problem("http://127.0.0.1:80", role: "control", binds: true))
        XCTAssertNil(EndpointCheck.problem("tcp://*:0", role: "events", binds: true))
        XCTAssertNil(EndpointCheck.problem("tcp://[::1]:7450", role: "events", binds: true))
        XCTAssertNil(EndpointCheck.problem("ipc:///run/modalwatch/control.sock", role: "control", binds: true))
    }

    func testMetricsOffLoopbackNeedTheOptIn() throws {
        XCTAssertThrowsError(try MetricsAddress(parsing: "0.0.0.0:9464", allowRemote: false))
        XCTAssertEqual(try MetricsAddress(parsing: "0.0.0.0:9464", allowRemote: true).port, 9464)
        XCTAssertEqual(try MetricsAddress(parsing: "127.0.0.2:0", allowRemote: false).host, "127.0.0.2")
        XCTAssertThrowsError(try MetricsAddress(parsing: "127.0.0.1:99999", allowRemote: false))
        XCTAssertThrowsError(try MetricsAddress(parsing: "localhost:9464", allowRemote: false))
        XCTAssertThrowsError(try MetricsAddress(parsing: "9464", allowRemote: false))
    }
}
