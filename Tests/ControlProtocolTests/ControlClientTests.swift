import ControlProtocol
import Foundation
import Glibc
import XCTest
import ZeroMQ

/// The client against a real `REP` socket over `ipc://`, answered from another thread.
final class ControlClientTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "mw-control-client-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A server that answers `count` requests with `answer` on its own thread, then closes.
    private func serve(
        _ endpoint: String,
        count: Int,
        answer: @escaping @Sendable ([UInt8]) -> [UInt8]
    ) throws -> DispatchSemaphore {
        let bound = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
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
            for _ in 0..<count {
                guard let request = try? socket.receiveFrame() else { return }
                _ = try? socket.send(answer(request))
            }
        }
        thread.start()
        XCTAssertEqual(bound.wait(timeout: .now() + 5), .success)
        return done
    }

    func testATypedRequestGetsItsTypedReply() throws {
        let endpoint = "ipc://\(folder)/control"
        var status = StatusReply()
        status[.eventsReceived] = 42
        let reply = ControlReply.encode(status)
        let done = try serve(endpoint, count: 2) { request in
            // The server checks what arrived: the typed request, as the daemon would read it.
            guard (try? ControlRequest(parsing: request)) == .status(StatusRequest()) else {
                return ControlReply.refusal(ControlRefusal("not a status request"))
            }
            return reply
        }
        let client = ControlClient(endpoint: endpoint, timeoutMs: 5000)
        XCTAssertEqual(try client.send(StatusRequest())[.eventsReceived], 42)
        let (bytes, typed) = try client.exchange(StatusRequest())  // the same socket, again
        XCTAssertEqual(bytes, reply)
        XCTAssertEqual(typed, status)
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
    }

    func testARefusalIsTold() throws {
        let endpoint = "ipc://\(folder)/refuse"
        let done = try serve(endpoint, count: 1) { _ in ControlReply.refusal(ControlRefusal("reload is refused")) }
        XCTAssertThrowsError(try ControlClient(endpoint: endpoint, timeoutMs: 5000).send(ReloadRequest())) {
            XCTAssertEqual($0 as? ControlClient.Failure, .refused("reload is refused"))
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
    }

    func testAReplyOfTheWrongShapeIsMalformed() throws {
        let endpoint = "ipc://\(folder)/wrong"
        let done = try serve(endpoint, count: 1) { _ in Array(#"{"ok":true,"v":1,"total":"many"}"#.utf8) }
        XCTAssertThrowsError(try ControlClient(endpoint: endpoint, timeoutMs: 5000).send(SessionsRequest())) {
            guard case .malformed(let text)? = $0 as? ControlClient.Failure else { return XCTFail("\($0)") }
            XCTAssertTrue(text.contains("\"total\""), text)
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
    }

    func testAMissingIpcSocketIsUnreachableAtOnce() throws {
        let client = ControlClient(endpoint: "ipc://\(folder)/missing", timeoutMs: 5000)
        let start = Date()
        XCTAssertThrowsError(try client.send(StatusRequest())) { error in
            guard case .unreachable(let text)? = error as? ControlClient.Failure else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("\(folder)/missing does not exist"), text)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "not after the 5 s timeout")
        XCTAssertTrue(FileManager.default.createFile(atPath: "\(folder)/plain", contents: Data()))
        XCTAssertThrowsError(
            try ControlClient(endpoint: "ipc://\(folder)/plain", timeoutMs: 5000).send(StatusRequest())
        ) { error in
            XCTAssertTrue("\(error)".contains("is not a socket"), "\(error)")
        }
    }

    func testNobodyListeningIsUnreachableWithinTheTimeout() throws {
        // A socket file left behind with nobody listening: ZeroMQ keeps trying until the timeout.
        let path = "\(folder)/nobody"
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        XCTAssertEqual(bound, 0)
        close(stale)
        let client = ControlClient(endpoint: "ipc://\(path)", timeoutMs: 200)
        let start = Date()
        XCTAssertThrowsError(try client.send(StatusRequest())) { error in
            guard case .unreachable(let text)? = error as? ControlClient.Failure else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("within 200 ms"), text)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        // After a timeout the client starts over: a server that comes up later is reached.
        let done = try serve("ipc://\(path)", count: 1) { _ in ControlReply.encode(ReloadReply(summary: "ok")) }
        let late = ControlClient(endpoint: "ipc://\(path)", timeoutMs: 5000)
        XCTAssertEqual(try late.send(ReloadRequest()).summary, "ok")
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
    }
}
