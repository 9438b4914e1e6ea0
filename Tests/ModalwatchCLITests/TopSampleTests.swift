import ControlProtocol
import Foundation
import XCTest
import ZeroMQ

@testable import modalwatch

/// `top` takes two looks at a daemon (a real REP socket answering from another thread) and works
/// out the rates between them: the busiest session first.
final class TopSampleTests: XCTestCase {
    private func session(_ id: String, events: Int) -> SessionInfo {
        var info = SessionInfo(
            id: id,
            app: "app",
            device: "phone",
            startedTs: 0,
            lastTs: 1,
            lastObserved: 1,
            events: events,
            alerts: 0,
            modalDepth: 0,
            maxDepth: 0,
            violations: 0
        )
        info.alertsWindow = 0
        info.windowMs = 600_000
        return info
    }

    func testTheSecondLookRanksByEventsPerSecond() throws {
        let folder = NSTemporaryDirectory() + "mw-top-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let endpoint = "ipc://\(folder)/control"
        var first = StatusReply()
        first[.violationsPublished] = 10
        var second = StatusReply()
        second[.violationsPublished] = 30
        // Look 1: "quiet" has more events in all; look 2: "busy" gained 1000, "quiet" none.
        let replies = [
            ControlReply.encode(first),
            ControlReply.encode(
                SessionsReply(total: 2, now: 1, sessions: [session("quiet", events: 500), session("busy", events: 10)])
            ),
            ControlReply.encode(second),
            ControlReply.encode(
                SessionsReply(
                    total: 2,
                    now: 2,
                    sessions: [session("quiet", events: 500), session("busy", events: 1010)]
                )
            ),
        ]
        let bound = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            defer { done.signal() }
            guard let context = try? ZMQContext(ioThreads: 1) else {
                bound.signal()
                return
            }
            defer { context.terminate() }
            guard let socket = try? ZMQSocket(context, type: .rep, linger: 0), (try? socket.bind(endpoint)) != nil
            else {
                bound.signal()
                return
            }
            defer { socket.close() }
            try? socket.set(.receiveTimeout, 5000)
            bound.signal()
            for reply in replies {
                guard (try? socket.receiveFrame()) != nil else { return }
                _ = try? socket.send(reply)
            }
        }.start()
        XCTAssertEqual(bound.wait(timeout: .now() + 5), .success)

        let client = ControlClient(endpoint: endpoint, timeoutMs: 5000)
        let look1 = try TopSample.take(client, after: nil)
        XCTAssertEqual(look1.sessions.map(\.id), ["quiet", "busy"], "no rates yet: most events first")
        XCTAssertNil(look1.violationsPerSecond)
        Thread.sleep(forTimeInterval: 0.05)
        let look2 = try TopSample.take(client, after: look1)
        XCTAssertEqual(look2.sessions.map(\.id), ["busy", "quiet"])
        XCTAssertGreaterThan(look2.eventsPerSecond["busy"] ?? 0, 0)
        XCTAssertEqual(look2.eventsPerSecond["quiet"], 0)
        XCTAssertGreaterThan(look2.violationsPerSecond ?? 0, 0)
        // `top --json`: the status as the daemon sent it (ok and v too), each session with its rate.
        let json = look2.json
        XCTAssertEqual(json["status"]?["ok"], .bool(true))
        XCTAssertEqual(json["status"]?["violations_published"], .integer(30))
        XCTAssertNotNil(json["sessions"]?.arrayValue?.first?["events_per_second"]?.doubleValue)
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
    }
}
