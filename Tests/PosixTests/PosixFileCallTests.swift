import Foundation
import Glibc
import Posix
import XCTest

/// The file calls of the spool and the rule-call marker (`Posix+Files.swift`), on real files
/// and a real full device.
final class PosixFileCallTests: XCTestCase {
    private var path = ""

    override func setUp() {
        path = NSTemporaryDirectory() + "posix-file-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    }

    override func tearDown() {
        unlink(path)
    }

    func testWritesAtOffsetsReadBackTruncateAndSize() throws {
        let descriptor = try Posix.open(path, O_RDWR | O_CREAT, mode: 0o600)
        defer { try? Posix.close(descriptor) }
        let first = Array("hello, ".utf8)
        let second = Array("world".utf8)
        try second.withUnsafeBytes { try Posix.writeAll(descriptor, $0, at: first.count) }
        try first.withUnsafeBytes { try Posix.writeAll(descriptor, $0, at: 0) }
        XCTAssertEqual(try Posix.fileSize(descriptor), 12)
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = try buffer.withUnsafeMutableBytes { (bytes) throws(PosixError) in
            try Posix.read(descriptor, into: bytes, at: 0)
        }
        XCTAssertEqual(String(decoding: buffer.prefix(n), as: UTF8.self), "hello, world")
        let tail = try buffer.withUnsafeMutableBytes { (bytes) throws(PosixError) in
            try Posix.read(descriptor, into: bytes, at: 7)
        }
        XCTAssertEqual(String(decoding: buffer.prefix(tail), as: UTF8.self), "world")
        XCTAssertEqual(
            try buffer.withUnsafeMutableBytes { (bytes) throws(PosixError) in
                try Posix.read(descriptor, into: bytes, at: 12)
            },
            0,
            "0 at the end"
        )
        try Posix.truncate(descriptor, to: 5)
        XCTAssertEqual(try Posix.fileSize(descriptor), 5)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "hello")
    }

    /// A device that is always full: the error is `pwrite`'s, with `ENOSPC` kept.
    func testAWriteToAFullDeviceKeepsENOSPC() throws {
        let descriptor = try Posix.open("/dev/full", O_WRONLY)
        defer { try? Posix.close(descriptor) }
        let bytes = [UInt8](repeating: 1, count: 100)
        XCTAssertThrowsError(try bytes.withUnsafeBytes { try Posix.writeAll(descriptor, $0, at: 0) }) {
            XCTAssertEqual($0 as? PosixError, PosixError(call: "pwrite", errno: ENOSPC))
        }
    }

    /// What is stored in a shared mapping reaches the file (another descriptor reads it) without a `write`.
    func testASharedMappingReachesTheFile() throws {
        let descriptor = try Posix.open(path, O_RDWR | O_CREAT, mode: 0o600)
        try Posix.truncate(descriptor, to: 4096)
        let mapped = try Posix.mapShared(descriptor, size: 4096)
        try Posix.close(descriptor)
        defer { munmap(mapped, 4096) }
        mapped.storeBytes(of: UInt64(0x1122_3344_5566_7788).littleEndian, toByteOffset: 512, as: UInt64.self)
        let reader = try Posix.open(path, O_RDONLY)
        defer { try? Posix.close(reader) }
        var value: UInt64 = 0
        let n = try withUnsafeMutableBytes(of: &value) { (bytes) throws(PosixError) in
            try Posix.read(reader, into: bytes, at: 512)
        }
        XCTAssertEqual(n, 8)
        XCTAssertEqual(UInt64(littleEndian: value), 0x1122_3344_5566_7788)
    }

    /// A file opened read-only cannot be mapped writable and shared: `mmap` fails with `EACCES`
    /// (MAP_FAILED, not a pointer).
    func testAMappingRefusedKeepsErrno() throws {
        let writer = try Posix.open(path, O_RDWR | O_CREAT, mode: 0o600)
        try Posix.truncate(writer, to: 4096)
        try Posix.close(writer)
        let descriptor = try Posix.open(path, O_RDONLY)
        defer { try? Posix.close(descriptor) }
        XCTAssertThrowsError(try Posix.mapShared(descriptor, size: 4096)) {
            XCTAssertEqual($0 as? PosixError, PosixError(call: "mmap", errno: EACCES))
        }
    }
}
