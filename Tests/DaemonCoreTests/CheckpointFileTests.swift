import Foundation
import Logging
import ModalwatchTesting
import XCTest

@testable import DaemonCore
@testable import SessionEngine

/// The checkpoint file in a real folder: written whole by the stop, or part by part by the
/// writer's thread and renamed into place at the end; read back at every start (not once); a
/// damaged one refused and set aside; the releases' snapshot read once when there is no checkpoint.
final class CheckpointFileTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "mw-checkpoint").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static func session(_ i: Int, lastObserved: Int64 = 0) -> EngineSnapshot.SessionState {
        EngineSnapshot.SessionState(
            id: Array("s\(i)".utf8),
            app: "com.example.app",
            device: 0,
            sizeClass: 0,
            foreground: true,
            stack: [],
            maxModalDepth: 0,
            startedTs: 1_700_000_000_000,
            lastTs: 1_700_000_000_000 + Int64(i),
            lastSeq: Int64(i),
            lastUserActionTs: .min,
            lastUserActionControl: -1,
            runningTasks: [],
            lastTaskFinishedTs: .min,
            lastTaskFailedTs: .min,
            events: 1,
            alertsPresented: 0,
            presentations: 0,
            violations: 0,
            lastObserved: lastObserved == 0 ? Int64(i) : lastObserved,
            counters: [UInt64(i): 1],
            windows: [:],
            fired: [],
            quietUntil: [:]
        )
    }

    private static let apps = [EngineSnapshot.AppStateSnapshot(name: "com.example.app", counters: [3: 2], fired: [8])]

    private func sample() -> EngineSnapshot {
        EngineSnapshot(
            version: EngineSnapshot.currentVersion,
            apps: Self.apps,
            sessions: (0..<20).map { Self.session($0) }
        )
    }

    func testAWholeCheckpointRoundTripsAndIsReadAtEveryStart() throws {
        let file = CheckpointFile(directory: folder)
        let written = try file.write(sample(), writtenAtMs: 1_234, into: nil)
        let onDisk = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        XCTAssertEqual(onDisk, written)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path + ".tmp"))
        let first = try XCTUnwrap(try file.read())
        XCTAssertEqual(first.snapshot, sample())
        XCTAssertEqual(first.writtenAtMs, 1_234)
        XCTAssertEqual(
            try file.read()?.snapshot,
            sample(),
            "a checkpoint stays: a crash after this start restores it again"
        )
    }

    func testTheWritersPartsMakeOneCheckpointRenamedIntoPlaceAtTheEnd() throws {
        let file = CheckpointFile(directory: folder)
        try file.write(sample(), writtenAtMs: 1, into: nil)
        let writer = CheckpointWriter(file: file, logger: Logger(label: "test"))
        writer.start()
        defer { writer.stop() }
        writer.submit(.begin(writtenAtMs: 99))
        // Session 3 is captured twice (it ended and came back in another slot): its later state counts.
        writer.submit(.part(EngineSnapshot(version: 1, apps: [], sessions: (0..<10).map { Self.session($0) })))
        writer.submit(
            .part(
                EngineSnapshot(
                    version: 1,
                    apps: Self.apps,
                    sessions: [Self.session(3, lastObserved: 500)] + (10..<30).map { Self.session($0) }
                )
            )
        )
        try waitUntil { writer.pendingSessions == 0 }
        XCTAssertEqual(try file.read()?.writtenAtMs, 1, "until the end frame, the previous checkpoint stays in force")
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.partialPath))
        writer.submit(.end(sessions: 31))
        try waitUntil { writer.statistics.written == 1 }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.partialPath))
        let read = try XCTUnwrap(try file.read())
        XCTAssertEqual(read.writtenAtMs, 99)
        XCTAssertEqual(read.snapshot.apps, Self.apps)
        XCTAssertEqual(read.snapshot.sessionCount, 30)
        XCTAssertEqual(read.snapshot.sessions.last?.id, Array("s3".utf8), "least recently active first")
        XCTAssertEqual(read.snapshot.sessions.last?.lastObserved, 500)
        XCTAssertEqual(writer.statistics.lastSessions, 31)
    }

    func testAWalkStoppedHalfwayLeavesThePreviousCheckpointWhole() throws {
        let file = CheckpointFile(directory: folder)
        try file.write(sample(), writtenAtMs: 7, into: nil)
        let writer = CheckpointWriter(file: file, logger: Logger(label: "test"))
        writer.start()
        writer.submit(.begin(writtenAtMs: 8))
        writer.submit(.part(EngineSnapshot(version: 1, apps: [], sessions: [Self.session(1)])))
        writer.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.partialPath))
        XCTAssertEqual(try file.read()?.writtenAtMs, 7)
        XCTAssertEqual(try file.read()?.snapshot, sample())
    }

    func testADamagedCheckpointIsRefusedAndSetAside() throws {
        let file = CheckpointFile(directory: folder)
        try file.write(sample(), writtenAtMs: 1, into: nil)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file.path)))
        bytes[bytes.count / 2] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: file.path))
        XCTAssertThrowsError(try file.read()) { error in
            guard case .checksumMismatch = error as? SnapshotFormatError else { return XCTFail("\(error)") }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path + ".damaged"))
        XCTAssertNil(try file.read(), "the damaged file no longer blocks a start")
    }

    func testACheckpointCutShortOrWithAWrongCountIsRefused() throws {
        let whole = CheckpointFile.encoded(sample(), writtenAtMs: 1)
        for cut in [whole.count - 1, whole.count - 9, CheckpointFile.headerSize + 3, 5] {
            XCTAssertThrowsError(
                try whole.prefix(cut).withUnsafeBytes { try CheckpointFile.decode($0) },
                "cut at \(cut)"
            )
        }
        var wrongCount = whole
        wrongCount[wrongCount.count - 8] ^= 1
        XCTAssertThrowsError(try wrongCount.withUnsafeBytes { try CheckpointFile.decode($0) }) { error in
            guard case .malformed = error as? SnapshotFormatError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try (whole + [0]).withUnsafeBytes { try CheckpointFile.decode($0) })
    }

    func testTheReleasesSnapshotIsReadOnceWhenThereIsNoCheckpoint() throws {
        let file = CheckpointFile(directory: folder)
        try Data(sample().binaryEncoded()).write(to: URL(fileURLWithPath: file.legacyPath))
        XCTAssertEqual(try file.read()?.snapshot, sample())
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.legacyPath))
        XCTAssertNil(try file.read())
    }

    private func waitUntil(_ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { return XCTFail("timed out") }
            usleep(1000)
        }
    }
}
