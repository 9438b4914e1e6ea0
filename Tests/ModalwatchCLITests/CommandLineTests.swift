import ArgumentParser
import ControlProtocol
import ModalwatchConfig
import XCTest

@testable import modalwatch

/// The commands that ask the daemon: their defaults come from one place, bad options are usage errors.
final class CommandLineTests: XCTestCase {
    func testControlCommandsDefaultToTheDefaultEndpoint() throws {
        let status = try XCTUnwrap(try Modalwatch.parseAsRoot(["status"]) as? StatusCommand)
        XCTAssertEqual(status.options.endpoints, [DefaultEndpoints.control])
        XCTAssertEqual(status.options.fleet.clients.map(\.endpoint), [DefaultEndpoints.control])
        let send = try XCTUnwrap(try Modalwatch.parseAsRoot(["send", "-"]) as? SendCommand)
        XCTAssertEqual(send.endpoints, [DefaultEndpoints.events])
        let tail = try XCTUnwrap(try Modalwatch.parseAsRoot(["tail"]) as? TailCommand)
        XCTAssertEqual(tail.publishEndpoints, [DefaultEndpoints.publish])
        XCTAssertEqual(Modalwatch.configuration.version, ModalwatchVersion.string)
    }

    func testSeveralDaemonsAreNamedByRepeatingTheOption() throws {
        let status = try XCTUnwrap(
            try Modalwatch.parseAsRoot(["status", "--control", "tcp://a:1", "--control", "ipc:///b"]) as? StatusCommand
        )
        XCTAssertEqual(status.options.endpoints, ["tcp://a:1", "ipc:///b"])
        XCTAssertFalse(status.options.fleet.isSingle)
        let send = try XCTUnwrap(
            try Modalwatch.parseAsRoot([
                "send", "-", "--events", "tcp://a:1", "--events", "tcp://b:2", "--shard-count", "2",
            ]) as? SendCommand
        )
        XCTAssertEqual(send.endpoints, ["tcp://a:1", "tcp://b:2"])
        XCTAssertThrowsError(try Modalwatch.parseAsRoot(["send", "-", "--shard-count", "257"]))
        XCTAssertThrowsError(try Modalwatch.parseAsRoot(["send", "-", "--shard-key", "color"]))
    }

    func testMergedStatusSumsCountersAndMarksWhatDiffers() {
        var a = StatusReply()
        var b = StatusReply()
        a[.eventsReceived] = 10
        b[.eventsReceived] = 32
        a.rejectedByReason = ["bad_field": 1]
        b.rejectedByReason = ["bad_field": 2, "gap": 1]
        a.edition = "current"
        b.edition = "ios7"
        a.uptimeSeconds = 50
        b.uptimeSeconds = 20
        a.shard = StatusReply.Shard(index: 0, count: 2, key: "app")
        a.shardBuckets = 128
        b.shard = StatusReply.Shard(index: 1, count: 2, key: "app")
        b.shardBuckets = 128
        let merged = StatusReply.merged([a, b])
        XCTAssertEqual(merged[.eventsReceived], 42)
        XCTAssertEqual(merged.rejectedByReason, ["bad_field": 3, "gap": 1])
        XCTAssertEqual(merged.edition, "mixed")
        XCTAssertEqual(merged.uptimeSeconds, 20)
        XCTAssertEqual(merged.shardBuckets, 256)
        XCTAssertNil(merged.shard)
        XCTAssertEqual(StatusReply.merged([a]).shard, a.shard, "one daemon's reply is its own")
    }

    func testMergedStatusMergesTheFaultFields() {
        var a = StatusReply()
        var b = StatusReply()
        var c = StatusReply()
        a[.violationsUnstored] = 2
        b[.violationsUnstored] = 5
        a[.violationsSpooled] = 7
        b[.violationsSpooled] = 1
        a[.spoolMemoryBytes] = 100
        b[.spoolFileBytes] = 4096
        a.faults.historyState = "ok"
        a.faults.historyHealthy = true
        b.faults.historyState = "failing"
        b.faults.historyHealthy = false
        b.faults.historyError = "disk full"
        a.faults.controlHoldMaxMicros = 300
        a.faults.controlHoldMaxRequest = "status"
        b.faults.controlHoldMaxMicros = 900
        b.faults.controlHoldMaxRequest = "sessions"
        a.faults.controlHoldCPUMaxByRequest = ["status": 80, "sessions": 400]
        b.faults.controlHoldCPUMaxByRequest = ["sessions": 250, "rules": 90]
        a[.controlHoldCPUMaxMicros] = 400
        b[.controlHoldCPUMaxMicros] = 250
        let crashed = FaultStatus.Quarantined(rule: "r1", module: "m", fault: "crashed (SIGSEGV)", event: "e", since: 1)
        let hung = FaultStatus.Quarantined(rule: "r2", module: "m", fault: "hung (1000 ms)", event: "e", since: 2)
        a.faults.rulesQuarantined = [crashed]
        b.faults.rulesQuarantined = [crashed, hung]
        let mergedReply = StatusReply.merged([a, b])
        let merged = mergedReply.faults
        XCTAssertEqual(mergedReply[.violationsUnstored], 7)
        XCTAssertEqual(mergedReply[.violationsSpooled], 8)
        XCTAssertEqual(mergedReply[.spoolMemoryBytes] + mergedReply[.spoolFileBytes], 4196)
        XCTAssertEqual(merged.historyState, "failing")
        XCTAssertFalse(merged.historyHealthy)
        XCTAssertEqual(merged.historyError, "disk full")
        XCTAssertEqual(merged.controlHoldMaxMicros, 900)
        XCTAssertEqual(merged.controlHoldMaxRequest, "sessions")
        XCTAssertEqual(mergedReply[.controlHoldCPUMaxMicros], 400)
        XCTAssertEqual(merged.controlHoldCPUMaxByRequest, ["status": 80, "sessions": 400, "rules": 90])
        XCTAssertEqual(merged.rulesQuarantined, [crashed, hung], "each quarantined rule once")
        // A daemon without history (`none`) does not make the others unhealthy.
        c.faults.historyState = "none"
        let healthy = StatusReply.merged([c, a]).faults
        XCTAssertEqual(healthy.historyState, "ok")
        XCTAssertTrue(healthy.historyHealthy)
    }

    func testOutOfRangeOptionsAreUsageErrors() {
        for arguments in [
            ["sessions", "--limit", "-1"], ["session", "x", "--events", "16385"], ["status", "--timeout", "0"],
            ["violations", "--since", "soon"], ["sessions", "--sort", "sideways"],
        ] {
            XCTAssertThrowsError(try Modalwatch.parseAsRoot(arguments), arguments.joined(separator: " ")) { error in
                XCTAssertNotEqual(Modalwatch.exitCode(for: error), .success)
            }
        }
    }

    func testTheSessionsTableShowsEachSession() {
        var live = SessionInfo(
            id: "s1",
            app: "com.example",
            device: "phone",
            startedTs: 0,
            lastTs: 90_000,
            lastObserved: 1_000,
            events: 5,
            alerts: 3,
            modalDepth: 2,
            maxDepth: 3,
            violations: 0
        )
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
