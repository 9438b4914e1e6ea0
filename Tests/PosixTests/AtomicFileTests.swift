import Foundation
import Glibc
import Posix
import XCTest

/// Atomic replacement on a real file system.
final class AtomicFileTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "atomic-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testWritesTheBytesAndLeavesNoTemporaryFile() throws {
        let path = folder + "/state.json"
        try AtomicFile.write(Array("first".utf8), to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "first")
        try AtomicFile.write(Array("second, longer".utf8), to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "second, longer")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["state.json"])
    }

    func testAFailedRenameKeepsTheOldFileAndRemovesTheTemporaryOne() throws {
        // The target is a non-empty folder: rename(2) fails (EISDIR), nothing is replaced.
        let path = folder + "/taken"
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        XCTAssertThrowsError(try AtomicFile.write(Array("new".utf8), to: path)) { error in
            XCTAssertEqual((error as? PosixError)?.call, "rename")
            XCTAssertEqual((error as? PosixError)?.errno, EISDIR)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".tmp"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "/inside"))
    }

    func testAMissingFolderIsAnErrorOfOpen() {
        XCTAssertThrowsError(try AtomicFile.write([1], to: folder + "/missing/file")) { error in
            XCTAssertEqual(error as? PosixError, PosixError(call: "open", errno: ENOENT))
        }
    }
}
