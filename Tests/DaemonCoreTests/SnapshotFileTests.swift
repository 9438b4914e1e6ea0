@testable import DaemonCore
import Foundation
import ModalwatchTesting
@testable import SessionEngine
import XCTest

/// The snapshot file in a real folder: binary written atomically and read back once, a JSON
/// snapshot from an older daemon still read, a damaged one refused and set aside.
final class SnapshotFileTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "mw-snapfile").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func sample() -> EngineSnapshot {
        let apps = [EngineSnapshot.AppStateSnapshot(name: "com.example.app", counters: [3: 2], fired: [8])]
        let sessions = (0..<20).map { i in
            EngineSnapshot.SessionState(
                id: Array("s\(i)".utf8), app: "com.example.app", device: 0, sizeClass: 0, foreground: true, stack: [],
                maxModalDepth: 0, startedTs: 1_700_000_000_000, lastTs: 1_700_000_000_000 + Int64(i), lastSeq: Int64(i),
                lastUserActionTs: .min, lastUserActionControl: -1, runningTasks: [], lastTaskFinishedTs: .min,
                lastTaskFailedTs: .min, events: 1, alertsPresented: 0, presentations: 0, violations: 0, lastObserved: 0,
                counters: [UInt64(i): 1], windows: [:], fired: [], quietUntil: [:])
        }
        return EngineSnapshot(version: EngineSnapshot.currentVersion, apps: apps, sessions: sessions)
    }

    func testBinaryRoundTripThroughTheFileIsReadOnce() throws {
        let file = SnapshotFile(directory: folder)
        let written = try file.write(sample())
        let onDisk = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        XCTAssertEqual(onDisk, written)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path + ".tmp"))
        XCTAssertEqual(try file.take(), sample())
        XCTAssertNil(try file.take(), "a snapshot is read once, so a crash never restores a stale one")
    }

    func testADamagedSnapshotIsRefusedAndSetAside() throws {
        let file = SnapshotFile(directory: folder)
        try file.write(sample())
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file.path)))
        bytes[bytes.count / 2] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: file.path))
        XCTAssertThrowsError(try file.take()) { error in
            guard case .checksumMismatch = error as? SnapshotFormatError else { return XCTFail("\(error)") }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path + ".damaged"))
        XCTAssertNil(try file.take(), "the damaged file no longer blocks a start")
    }
}
