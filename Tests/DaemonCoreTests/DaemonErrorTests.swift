import Foundation
import ModalwatchTesting
import Posix
import XCTest
import ZeroMQ

@testable import DaemonCore

/// A `DaemonError` keeps its code, its one-line message and the error it comes from, with its errno.
final class DaemonErrorTests: XCTestCase {
    func testAFailedSystemCallKeepsItsErrnoAndItsError() throws {
        let folder = try TemporaryDirectory(prefix: "mw-daemon-error")
        defer { folder.remove() }
        XCTAssertThrowsError(try StateDirectoryLock.acquire(folder.file("missing"))) { error in
            guard let error = error as? DaemonError else { return XCTFail("\(error) is not a DaemonError") }
            XCTAssertEqual(error.code, .systemCall)
            XCTAssertEqual(error.errno, ENOENT)
            XCTAssertEqual((error.underlying as? PosixError)?.call, "open")
            XCTAssertTrue(error.message.contains("cannot open the state directory's lock"), error.message)
        }
    }

    func testAnEndpointInUseKeepsTheLibzmqErrno() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let holder = try ZMQSocket(context, type: .pub)
        defer { holder.close() }
        try holder.bind("tcp://127.0.0.1:*")
        let endpoint = try holder.lastEndpoint
        XCTAssertThrowsError(try PublishingThread.start(.forTest(context, historyPath: nil, publish: endpoint))) {
            error in
            guard let error = error as? DaemonError else { return XCTFail("\(error) is not a DaemonError") }
            XCTAssertEqual(error.code, .endpoint)
            XCTAssertEqual(error.errno, EADDRINUSE)
            XCTAssertNotNil(error.underlying as? ZMQError)
        }
    }

    func testAnErrorOfItsOwnHasNoUnderlyingError() {
        let error = DaemonError(.configuration, "history.group: there is no group 'x'")
        XCTAssertNil(error.underlying)
        XCTAssertNil(error.errno)
        XCTAssertEqual(error.description, "history.group: there is no group 'x'")
    }
}
