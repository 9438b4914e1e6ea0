import CRuleGuard
import Foundation
import Glibc
import XCTest

@testable import RuleHost

/// The private copy a module is loaded from holds the file's bytes, is made every time, and
/// refuses every change afterwards.
final class ModuleFileTests: XCTestCase {
    private var path = ""

    override func setUpWithError() throws {
        path = NSTemporaryDirectory() + "mw-modulefile-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).so"
        // Larger than one copy buffer and a few pages, so the copy's pages are written by several calls.
        let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: path)
    }

    func testEveryCopyIsMadeAndSealedRightAfterItsWrites() throws {
        // Sealing right after the writes must not depend on the kernel having let go of the pages
        // (F_SEAL_WRITE fails with EBUSY while one is still referenced elsewhere).
        for round in 0..<64 {
            let file = try ModuleFile.copy(of: path)
            XCTAssertNil(file.copyProblem, "round \(round)")
            XCTAssertGreaterThanOrEqual(file.descriptor, 0, "round \(round)")
            close(file.descriptor)
        }
    }

    func testTheCopyHoldsTheFilesBytesAndRefusesWritesGrowthAndShrinking() throws {
        let file = try ModuleFile.copy(of: path)
        defer { close(file.descriptor) }
        let copied = try Data(contentsOf: URL(fileURLWithPath: file.loadPath))
        XCTAssertEqual(copied, try Data(contentsOf: URL(fileURLWithPath: path)))

        // Another description of the same file, as another process of the same user would open it.
        let writer = open(file.loadPath, O_RDWR | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(writer, 0, String(cString: strerror(errno)))
        defer { close(writer) }
        var byte: UInt8 = 0xFF
        XCTAssertEqual(pwrite(writer, &byte, 1, 0), -1)
        XCTAssertEqual(errno, EPERM)
        XCTAssertEqual(ftruncate(writer, 1), -1)
        XCTAssertEqual(errno, EPERM)
        XCTAssertEqual(ftruncate(writer, 8 << 20), -1)
        XCTAssertEqual(errno, EPERM)
        XCTAssertEqual(mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, writer, 0), MAP_FAILED)
        let addSeals: Int32 = 1024 + 9  // F_ADD_SEALS, which Glibc does not export to Swift
        XCTAssertEqual(fcntl(writer, addSeals, Int32(0)), -1, "no more seals can be added")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file.loadPath)), copied)
    }

    func testTheSealHoldsWhileThePagesAreStillReferencedElsewhere() throws {
        // A page of the copy held by a pipe (as the kernel holds pages in flight elsewhere) made
        // F_SEAL_WRITE wait and then fail with EBUSY; the seal the copy gets does not wait for it.
        let copy = mw_private_file("modalwatch-module:test")
        XCTAssertGreaterThanOrEqual(copy, 0, String(cString: strerror(errno)))
        defer { close(copy) }
        var page = [UInt8](repeating: 0x5A, count: 4096)
        XCTAssertEqual(pwrite(copy, &page, page.count, 0), page.count)
        var pipeEnds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeEnds), 0)
        defer {
            close(pipeEnds[0])
            close(pipeEnds[1])
        }
        // splice(2) is a GNU extension Glibc does not export to Swift.
        typealias Splice =
            @convention(c) (Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32) ->
            Int
        let splice = unsafeBitCast(try XCTUnwrap(dlsym(nil, "splice")), to: Splice.self)
        var from: Int64 = 0
        XCTAssertEqual(splice(copy, &from, pipeEnds[1], nil, 4096, 0), 4096, String(cString: strerror(errno)))

        XCTAssertEqual(mw_private_file_seal(copy), 0, String(cString: strerror(errno)))
        XCTAssertEqual(pwrite(copy, &page, 1, 0), -1)
        XCTAssertEqual(errno, EPERM)
    }
}
