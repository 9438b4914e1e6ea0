import Foundation
import Glibc
import Posix
import Synchronization
import XCTest

/// The wrapper with real system calls and a real signal.
final class PosixCallTests: XCTestCase {
    func testAFailureKeepsErrnoAndNamesTheCall() {
        XCTAssertThrowsError(try Posix.open("/nonexistent-\(getpid())/file", O_RDONLY)) { error in
            XCTAssertEqual(error as? PosixError, PosixError(call: "open", errno: ENOENT))
            XCTAssertEqual("\(error)", "open: No such file or directory (errno \(ENOENT))")
        }
        XCTAssertThrowsError(try Posix.rename("/nonexistent-\(getpid())", "/tmp/x")) { error in
            XCTAssertEqual((error as? PosixError)?.call, "rename")
            XCTAssertEqual((error as? PosixError)?.errno, ENOENT)
        }
    }

    func testWritingToAStreamWritesAllOrStopsQuietly() throws {
        let path = NSTemporaryDirectory() + "mw-stream-\(getpid())"
        defer { unlink(path) }
        let descriptor = try Posix.open(path, O_WRONLY | O_CREAT | O_TRUNC)
        let bytes = [UInt8](repeating: 0x61, count: 300_000)
        XCTAssertTrue(bytes.withUnsafeBytes { Posix.writeAllOrStop(descriptor, $0) })
        try Posix.close(descriptor)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)).count, bytes.count)
        // A closed descriptor (a daemon started with stderr closed): false, where `writeAll` would trap.
        XCTAssertFalse(bytes.withUnsafeBytes { Posix.writeAllOrStop(descriptor, $0) })
    }

    func testANonBlockingCallThatWouldBlockIsNil() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer {
            try? Posix.close(ends[0])
            try? Posix.close(ends[1])
        }
        XCTAssertEqual(fcntl(ends[0], F_SETFL, O_NONBLOCK), 0)
        var value: UInt64 = 0
        XCTAssertNil(
            try withUnsafeMutableBytes(of: &value) { (buffer) throws(PosixError) in
                try Posix.read(ends[0], into: buffer)
            }
        )
        var one: UInt64 = 1
        XCTAssertEqual(
            try withUnsafeBytes(of: &one) { (buffer) throws(PosixError) in try Posix.write(ends[1], buffer) },
            8
        )
        XCTAssertEqual(
            try withUnsafeMutableBytes(of: &value) { (buffer) throws(PosixError) in
                try Posix.read(ends[0], into: buffer)
            },
            8
        )
        XCTAssertEqual(value, 1)
    }

    /// A `read` blocked on an empty pipe is interrupted by real signals (a handler without
    /// `SA_RESTART`, so the kernel returns `EINTR`); the wrapper calls it again each time and
    /// returns the bytes once they come.
    func testAnInterruptedCallIsRetried() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0  // no SA_RESTART: the read returns EINTR
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        XCTAssertEqual(sigaction(SIGUSR2, &action, &previous), 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let state = ReaderState()
        let reader = ends[0]
        let thread = Thread {
            state.thread.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
            var byte: UInt8 = 0
            let result = Result { () throws(PosixError) -> Int in
                try Posix.call("read") {
                    state.attempts.add(1, ordering: .sequentiallyConsistent)
                    return read(reader, &byte, 1)
                }
            }
            state.finish(result.map { $0 == 1 ? Int(byte) : -1 })
        }
        thread.start()
        // Signal the reader until it was interrupted at least twice (each time it reads again).
        let deadline = Date().addingTimeInterval(10)
        while state.attempts.load(ordering: .sequentiallyConsistent) < 3 && Date() < deadline {
            let id = state.thread.load(ordering: .sequentiallyConsistent)
            if id != 0 { pthread_kill(pthread_t(id), SIGUSR2) }
            usleep(5000)
        }
        XCTAssertGreaterThanOrEqual(
            state.attempts.load(ordering: .sequentiallyConsistent),
            3,
            "interrupted and retried"
        )
        var byte: UInt8 = 42
        XCTAssertEqual(write(ends[1], &byte, 1), 1)
        XCTAssertEqual(state.done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(try state.result.withLock { $0 }?.get(), 42)
    }
}

/// What the reader thread of `testAnInterruptedCallIsRetried` shares with the test.
private final class ReaderState: Sendable {
    let thread = Atomic<UInt>(0)
    let attempts = Atomic<Int>(0)
    let result = Mutex<Result<Int, PosixError>?>(nil)
    let done = DispatchSemaphore(value: 0)

    func finish(_ value: Result<Int, PosixError>) {
        result.withLock { $0 = value }
        done.signal()
    }
}
