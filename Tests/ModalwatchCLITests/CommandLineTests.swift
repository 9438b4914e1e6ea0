import ArgumentParser
import ControlProtocol
import ModalwatchConfig
import XCTest

@testable import modalwatch

/// The commands that ask the daemon: their defaults come from one place, bad options are usage errors.
final class CommandLineTests: XCTestCase {
    func testControlCommandsDefaultToTheDefaultEndpoint() throws {
        let status = try XCTUnwrap(try Modalwatch.parseAsRoot(["status"]) as? StatusCommand)
        XCTAssertEqual(status.options.control, DefaultEndpoints.control)
        XCTAssertEqual(status.options.client.endpoint, DefaultEndpoints.control)
        let send = try XCTUnwrap(try Modalwatch.parseAsRoot(["send", "-"]) as? SendCommand)
        XCTAssertEqual(send.events, DefaultEndpoints.events)
        let tail = try XCTUnwrap(try Modalwatch.parseAsRoot(["tail"]) as? TailCommand)
        XCTAssertEqual(tail.publish, DefaultEndpoints.publish)
        XCTAssertEqual(Modalwatch.configuration.version, ModalwatchVersion.string)
    }

    func testOutOfRangeOptionsAreUsageErrors() {
        for arguments in [["sessions", "--limit", "-1"], ["session", "x", "--events", "16385"], ["status", "--timeout", "0"],
                          ["violations", "--since", "soon"], ["sessions", "--sort", "sideways"]] {
            XCTAssertThrowsError(try Modalwatch.parseAsRoot(arguments), arguments.joined(separator: " ")) { error in
                XCTAssertNotEqual(Modalwatch.exitCode(for: error), .success)
            }
        }
    }

    func testTheSessionsTableShowsEachSession() {
        var live = SessionInfo(id: "s1", app: "com.example", device: "phone", startedTs: 0, lastTs: 90_000, lastObserved: 1_000,
                               events: 5, alerts: 3, modalDepth: 2, maxDepth: 3, violations: 0)
        live.alertsWindow = 3
        live.windowMs = 600_000
        let lines = SessionsCommand.table([live], now: 13_000).lines()
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].contains("ALERTS/10 min"), lines[0])
        for cell in ["s1", "com.example", "phone", "1 min 30 s", "12 s ago", "3", "2"] {
            XCTAssertTrue(lines[1].contains(cell), "\(cell) in \(lines[1])")
        }
    }
}
