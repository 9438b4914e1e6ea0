import ControlProtocol
import DaemonCore
import Dispatch
import Foundation
import InMemoryLogging
import Logging
import ModalwatchConfig
import ModalwatchTesting
import RuleHost
import XCTest
import ZeroMQ

/// A real `IngestLoop` on its own thread, as modalwatchd runs it (ipc:// endpoints in a private
/// folder, a state directory, the built-in modules), asked over its control socket with the typed
/// client: what the CLI, the bench and the other engineers' tools do.
final class ControlSocketTests: XCTestCase {
    private var folder = ""
    private var configuration = DaemonConfiguration()
    private var wakeup: Wakeup?
    private var stopped = DispatchSemaphore(value: 0)
    private let logs = InMemoryLogHandler()

    private static let stream = [
        #"{"v":1,"type":"session.start","session":"mail-7f3a","ts":1732290000000,"app":"com.example.mail","app_version":"4.2.0","os":"iOS 18.1","device":"phone"}"#,
        #"{"v":1,"type":"user.action","session":"mail-7f3a","ts":1732290004000,"control":"toolbar_button","label":"Trash"}"#,
        #"{"v":1,"type":"alert.presented","session":"mail-7f3a","ts":1732290009500,"id":"a1","title":"Message Sent","message":"Your message was delivered.","buttons":[{"title":"OK","style":"default"}]}"#,
    ]

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "mw-daemoncore").path
        configuration.events = ["ipc://\(folder)/events"]
        configuration.publish = "ipc://\(folder)/publish"
        configuration.control = "ipc://\(folder)/control"
        configuration.stateDirectory = folder + "/state"
        configuration.metrics = nil
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let catalog = BuiltinCatalog.load()
        let wakeup = try Wakeup()
        self.wakeup = wakeup
        let fixed = configuration
        let handler = logs
        let settings = IngestLoop.Settings(
            configuration: configuration,
            catalog: catalog,
            wakeup: wakeup,
            logger: Logger(label: "test") { _ in handler },
            notifier: SystemdNotifier(environment: [:]),
            configurationSource: { fixed }
        )
        let ready = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        self.stopped = stopped
        let thread = Thread {
            try? Daemon.run(settings) { _ in ready.signal() }
            ready.signal()
            stopped.signal()
        }
        thread.start()
        XCTAssertEqual(ready.wait(timeout: .now() + 10), .success, "the loop did not start")
    }

    override func tearDownWithError() throws {
        wakeup?.request(.stop)
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success, "the loop did not stop")
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func client() -> ControlClient {
        ControlClient(endpoint: configuration.control, timeoutMs: 5000)
    }

    func testStatusAnswersTypedWithTheVersionsAndTheEndpoints() throws {
        let status = try client().send(StatusRequest())
        XCTAssertEqual(status.version, ModalwatchVersion.string)
        XCTAssertEqual(status.protocolVersion, ModalwatchVersion.controlProtocol)
        XCTAssertEqual(status.endpoints["control"], [configuration.control])
        XCTAssertEqual(status.history, folder + "/state/history.sqlite")
        XCTAssertEqual(status[.eventsReceived], 0)
    }

    func testSessionsAndSessionReportWhatWasSent() throws {
        let context = try ZMQContext(ioThreads: 1)
        defer { context.terminate() }
        let publisher = try ZMQSocket(context, type: .pub, linger: 1000)
        defer { publisher.close() }
        try publisher.connect(configuration.events[0])
        let client = client()
        // A PUB drops what it sends before the connection is up: sent again while the loop has
        // received nothing 0.5 s after (past the tick `status` may lag behind).
        let deadline = Date().addingTimeInterval(10)
        var status = try client.send(StatusRequest())
        var sentAt: Date?
        while status[.eventsReceived] < Self.stream.count, Date() < deadline {
            if sentAt == nil || (status[.eventsReceived] == 0 && Date().timeIntervalSince(sentAt!) > 0.5) {
                for line in Self.stream { _ = try publisher.send(line) }
                sentAt = Date()
            }
            Thread.sleep(forTimeInterval: 0.05)
            status = try client.send(StatusRequest())
        }
        XCTAssertGreaterThanOrEqual(status[.eventsReceived], Self.stream.count)

        let sessions = try client.send(SessionsRequest(app: "com.example.mail"))
        XCTAssertEqual(sessions.total, 1)
        XCTAssertEqual(sessions.sessions.first?.id, "mail-7f3a")
        XCTAssertEqual(sessions.sessions.first?.device, "phone")
        XCTAssertNotNil(sessions.sessions.first?.windowMs)

        let session = try client.send(SessionRequest(id: "mail-7f3a"))
        XCTAssertEqual(session.session.live, true)
        XCTAssertEqual(session.session.stack?.map(\.id), ["a1"])
        XCTAssertEqual(session.session.stack?.first?.title, "Message Sent")
        XCTAssertEqual(session.events.map(\.type).suffix(3), ["session.start", "user.action", "alert.presented"])
        XCTAssertEqual(session.events.first { $0.type == "user.action" }?.label, "Trash")
        XCTAssertNotNil(session.violations, "the daemon keeps history here")
    }

    /// `sessions` is read on the ingest thread in slices (a few hundred µs each) and ranked on the
    /// control thread: every live session once, in the order asked, cut to the limit; `status` says
    /// how long each request held the ingest thread, and `violations` and `status` never do.
    func testSessionsListsEveryLiveSessionOnceInOrderAcrossSlices() throws {
        let context = try ZMQContext(ioThreads: 1)
        defer { context.terminate() }
        let publisher = try ZMQSocket(context, type: .pub, linger: 1000)
        defer { publisher.close() }
        try publisher.connect(configuration.events[0])
        let client = client()
        // A PUB drops what it sends before the connection is up: a probe until the loop counts it.
        let deadline = Date().addingTimeInterval(10)
        var status = try client.send(StatusRequest())
        while status[.eventsReceived] == 0, Date() < deadline {
            _ = try publisher.send(Self.stream[0])
            Thread.sleep(forTimeInterval: 0.05)
            status = try client.send(StatusRequest())
        }
        // 3,000 sessions; session n judges n % 5 actions after its start.
        let count = 3000
        var lines: [String] = []
        for n in 0..<count {
            let ts = 1_732_290_000_000 + Int64(n)
            lines.append(
                #"{"v":1,"type":"session.start","session":"s\#(n)","ts":\#(ts),"app":"com.example.notes","app_version":"1","os":"iOS 18.1","device":"pad"}"#
            )
            for k in 0..<(n % 5) {
                lines.append(
                    #"{"v":1,"type":"user.action","session":"s\#(n)","ts":\#(ts + 1 + Int64(k)),"control":"button","label":"Edit"}"#
                )
            }
        }
        for first in stride(from: 0, to: lines.count, by: 500) {
            _ = try publisher.send(lines[first..<min(first + 500, lines.count)].joined(separator: "\n"))
        }
        while status[.sessionsLive] < count + 1, Date() < deadline.addingTimeInterval(20) {
            Thread.sleep(forTimeInterval: 0.05)
            status = try client.send(StatusRequest())
        }
        XCTAssertEqual(status[.sessionsLive], count + 1)

        // Paged: each reply at most 256 KiB of sessions, `next` sent back as `cursor` until none follows.
        var all = try client.send(
            SessionsRequest(app: "com.example.notes", sort: .events, limit: SessionsRequest.maximumLimit)
        )
        var pages = 1
        func checkBound(_ page: SessionsReply) {
            let bytes = page.sessions.reduce(0) { $0 + JSONWriter.encode($1.json).count + 1 }
            XCTAssertLessThanOrEqual(bytes, SessionsRequest.maximumReplyBytes, "a page's sessions within the bound")
        }
        checkBound(all)
        XCTAssertNotNil(all.next, "3,000 sessions do not fit in 256 KiB")
        XCTAssertLessThan(all.sessions.count, count)
        var cursor = all.next
        while let next = cursor {
            let page = try client.send(
                SessionsRequest(
                    app: "com.example.notes",
                    sort: .events,
                    limit: SessionsRequest.maximumLimit - all.sessions.count,
                    cursor: next
                )
            )
            checkBound(page)
            XCTAssertFalse(page.sessions.isEmpty)
            XCTAssertEqual(page.total, count)
            all.sessions += page.sessions
            cursor = page.next
            pages += 1
            XCTAssertLessThan(pages, 100)
        }
        XCTAssertGreaterThan(pages, 1)
        XCTAssertEqual(all.sessions.count, count, "every session exactly once across pages")
        XCTAssertEqual(all.total, count)
        XCTAssertEqual(Set(all.sessions.map(\.id)).count, count, "every session once")
        XCTAssertEqual(all.sessions.map(\.events), all.sessions.map(\.events).sorted(by: >))
        XCTAssertEqual(all.sessions.first?.events, (all.sessions.last?.events ?? 0) + 4)
        XCTAssertEqual(all.sessions.first?.device, "pad")
        let top = try client.send(SessionsRequest(app: "com.example.notes", sort: .events, limit: 25))
        XCTAssertEqual(top.total, count)
        XCTAssertEqual(
            top.sessions.map(\.id),
            Array(all.sessions.prefix(25).map(\.id)),
            "the same order, cut to the limit"
        )
        XCTAssertNotNil(top.next, "more follow the first 25")
        let second = try client.send(
            SessionsRequest(app: "com.example.notes", sort: .events, limit: 25, cursor: top.next)
        )
        XCTAssertEqual(
            second.sessions.map(\.id),
            Array(all.sessions[25..<50].map(\.id)),
            "the next page goes on in the same order"
        )
        XCTAssertThrowsError(
            try client.send(SessionsRequest(app: "com.example.notes", sort: .recent, limit: 25, cursor: top.next)),
            "a cursor of another order is refused"
        )
        XCTAssertThrowsError(try client.send(SessionsRequest(sort: .events, limit: 25, cursor: "nonsense")))
        let last = try client.send(
            SessionsRequest(
                app: "com.example.notes",
                sort: .events,
                limit: 25,
                cursor: "events:0:0:0:~"
            )
        )
        XCTAssertTrue(last.sessions.isEmpty, "nothing after the end of the order")
        XCTAssertNil(last.next)
        let everyApp = try client.send(SessionsRequest(sort: .recent, limit: SessionsRequest.maximumLimit))
        XCTAssertEqual(everyApp.total, count + 1)
        let seen = everyApp.sessions.compactMap(\.lastObserved)
        XCTAssertEqual(seen, seen.sorted(by: >), "most recently active first")
        XCTAssertEqual(try client.send(SessionsRequest(app: "com.example.none", limit: 10)).total, 0)

        _ = try client.send(ViolationsRequest(limit: ViolationsRequest.maximumLimit))
        let reply = try client.send(StatusRequest())
        let faults = reply.faults
        XCTAssertNotNil(faults.controlHoldMaxByRequest["sessions"])
        XCTAssertNil(faults.controlHoldMaxByRequest["violations"], "answered by the control thread alone")
        XCTAssertNil(faults.controlHoldMaxByRequest["status"], "answered from the published counters alone")
        XCTAssertGreaterThan(reply[.controlHoldCPUMaxMicros], 0)
        XCTAssertLessThanOrEqual(reply[.controlHoldCPUMaxMicros], faults.controlHoldMaxMicros + 1000)
    }

    func testAMalformedRequestGetsItsSentenceAndTheSocketGoesOn() throws {
        let client = client()
        let reply = try client.request(Array(#"{"cmd":"sessions","limit":1.5}"#.utf8))
        XCTAssertEqual(
            String(decoding: reply, as: UTF8.self),
            #"{"error":"limit must be a whole number","ok":false,"v":1}"#
        )
        XCTAssertThrowsError(try client.send(SessionRequest(id: "nobody"))) { error in
            guard case .refused(let text)? = error as? ControlClient.Failure else { return XCTFail("\(error)") }
            XCTAssertTrue(text.hasPrefix("no live session 'nobody'"), text)
        }
        XCTAssertEqual(try client.send(StatusRequest()).protocolVersion, 1, "still answering")
    }

    func testReloadOverIPCIsAnsweredAndLogged() throws {
        let reply = try client().send(ReloadRequest())
        XCTAssertTrue(reply.reloaded)
        XCTAssertFalse(reply.summary.isEmpty)
        XCTAssertEqual(try client().send(StatusRequest())[.configReloads], 1)
    }
}
