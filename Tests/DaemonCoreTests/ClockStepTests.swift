import ControlProtocol
import DaemonCore
import Dispatch
import Foundation
import Logging
import ModalwatchConfig
import ModalwatchTesting
import RuleHost
import XCTest
import ZeroMQ

/// The daemon's clock (`DaemonClock`) against a wall clock that steps: a forward step neither
/// expires a live session nor prunes a stored row, while time that really passes still does both.
/// The wall clock is the test's (`SteppedClock`, passed in as `IngestLoop.Settings.clock`), never
/// the machine's.
final class ClockStepTests: XCTestCase {
    private static let day: Int64 = 86_400_000

    func testTheClockFollowsTimeThatPassesNotAForwardStep() {
        let source = SteppedClock()
        let clock = DaemonClock(source: source)
        let before = clock.milliseconds()
        source.step(wall: 31 * Self.day)
        XCTAssertLessThan(
            clock.milliseconds() - before,
            Self.day,
            "a forward step of the wall clock is not time passing"
        )
        source.pass(2 * Self.day)
        XCTAssertGreaterThanOrEqual(clock.milliseconds() - before, 2 * Self.day)
        XCTAssertLessThan(clock.milliseconds() - before, 3 * Self.day)
        // A step back is followed at once: the clock is never ahead of the wall clock.
        source.step(wall: -40 * Self.day)
        XCTAssertLessThanOrEqual(clock.milliseconds(), source.wallMilliseconds())
        XCTAssertLessThan(clock.milliseconds() - before, -6 * Self.day)
    }

    func testTheClockSaturatesWhateverTheSourceSays() {
        final class Wild: DaemonClock.Source {
            func wallMilliseconds() -> Int64 { .max }
            func bootMilliseconds() -> Int64 { .min }
        }
        XCTAssertEqual(DaemonClock(source: Wild()).milliseconds(), .max)
    }

    /// A real loop (ipc endpoints, a state directory, the built-in modules): sessions live and
    /// violations stored; the wall clock steps +31 days: no session expires and, at the next
    /// retention (max age 30 days), no row goes. Then 31 days pass: both go.
    func testAWallClockStepExpiresNoSessionAndPrunesNoRowButTimePassingDoes() throws {
        let folder = try TemporaryDirectory(prefix: "mw-clock").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = DaemonConfiguration()
        configuration.events = ["ipc://\(folder)/events"]
        configuration.publish = "ipc://\(folder)/publish"
        configuration.control = "ipc://\(folder)/control"
        configuration.stateDirectory = folder + "/state"
        configuration.metrics = nil
        configuration.historyMaxAgeMs = 30 * Self.day
        configuration.historyMaxRows = nil
        // The retention every 100 ms, not every 5 s: a wait past its interval is short.
        configuration.historyPruneIntervalMs = 100
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let catalog = BuiltinCatalog.load()
        let wakeup = try Wakeup()
        let source = SteppedClock()
        let fixed = configuration
        var settings = IngestLoop.Settings(
            configuration: configuration,
            catalog: catalog,
            wakeup: wakeup,
            logger: quiet,
            notifier: SystemdNotifier(environment: [:]),
            configurationSource: { fixed }
        )
        settings.clock = source
        let loopSettings = settings
        let ready = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            try? Daemon.run(loopSettings) { _ in ready.signal() }
            ready.signal()
            stopped.signal()
        }.start()
        XCTAssertEqual(ready.wait(timeout: .now() + 10), .success, "the loop did not start")
        defer {
            wakeup.request(.stop)
            XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success, "the loop did not stop")
        }

        let context = try ZMQContext(ioThreads: 1)
        defer { context.terminate() }
        let publisher = try ZMQSocket(context, type: .pub, linger: 1000)
        defer { publisher.close() }
        try publisher.connect(configuration.events[0])
        let client = ControlClient(endpoint: configuration.control, timeoutMs: 5000)

        /// Sends session `id`'s start and an alert that breaks a rule, until the loop has stored
        /// `stored` violations in all (a PUB drops what it sends before its connection is up: the
        /// lines go again while the loop has received nothing 0.5 s after, past the tick `status`
        /// may lag behind).
        func violate(_ id: String, untilStored stored: Int) throws -> StatusReply {
            let lines = [
                #"{"v":1,"type":"session.start","session":"\#(id)","ts":1732290000000,"app":"com.example.mail"}"#,
                #"{"v":1,"type":"alert.presented","session":"\#(id)","ts":1732290001000,"id":"a1","title":"Error"}"#,
            ]
            let deadline = Date().addingTimeInterval(10)
            var status = try client.send(StatusRequest())
            var sentAt: Date?
            repeat {
                if sentAt == nil || (status[.eventsReceived] == 0 && Date().timeIntervalSince(sentAt!) > 0.5) {
                    for line in lines { _ = try publisher.send(line) }
                    sentAt = Date()
                }
                Thread.sleep(forTimeInterval: 0.05)
                status = try client.send(StatusRequest())
            } while status[.violationsStored] < stored && Date() < deadline
            XCTAssertGreaterThanOrEqual(status[.violationsStored], stored, "violations of \(id)")
            return status
        }
        /// Waits past the retention's interval (`historyPruneIntervalMs`), so that the next stored violation runs it.
        func waitForTheNextRetention() { Thread.sleep(forTimeInterval: 0.15) }

        let first = try violate("S1", untilStored: 1)
        let rows = first[.violationsStored]
        XCTAssertEqual(first[.sessionsLive], 1)

        // The wall clock steps 31 days ahead: the sessions stay, and the retention keeps every row.
        source.step(wall: 31 * Self.day)
        waitForTheNextRetention()
        var status = try violate("S2", untilStored: rows + 1)
        Thread.sleep(forTimeInterval: 0.5)  // two ticks of the idle release, and the retention's commit
        status = try client.send(StatusRequest())
        XCTAssertEqual(status[.sessionsExpired], 0, "a wall clock step expired live sessions")
        XCTAssertEqual(status[.sessionsLive], 2)
        XCTAssertEqual(status[.historyPruned], 0, "a wall clock step pruned rows stored seconds earlier")
        let kept = try client.send(ViolationsRequest(limit: 1000))
        XCTAssertEqual(kept.count, status[.violationsStored])

        // 31 days pass: the idle sessions go at the next tick, and S1's rows (and S2's, found
        // under the stepped clock but never later than the daemon's) at the next retention.
        source.pass(31 * Self.day)
        waitForTheNextRetention()
        status = try violate("S3", untilStored: status[.violationsStored] + 1)
        let deadline = Date().addingTimeInterval(5)
        while status[.historyPruned] < rows || status[.sessionsExpired] < 2, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            status = try client.send(StatusRequest())
        }
        XCTAssertEqual(status[.sessionsExpired], 2, "S1 and S2, idle 31 days")
        XCTAssertGreaterThanOrEqual(status[.historyPruned], rows, "rows older than 30 days")
        let left = try client.send(ViolationsRequest(limit: 1000))
        XCTAssertTrue(
            left.violations.allSatisfy { $0["session"]?.stringValue == "S3" },
            "only S3's rows are young enough"
        )
    }
}
