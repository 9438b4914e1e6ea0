import ByteBasics
import ModalwatchTesting
import RuleHost
import XCTest

@testable import SessionEngine

/// The binary session snapshot: every field survives a round trip, an engine restores what
/// it wrote, and a truncated, bit-flipped or garbled file is refused with an error, never a crash.
final class SnapshotFormatTests: XCTestCase {
    /// A snapshot using every field, absent times (`Int64.min`) and extremes included.
    static func richSnapshot(sessions count: Int = 3) -> EngineSnapshot {
        let apps = [
            EngineSnapshot.AppStateSnapshot(
                name: "com.example.shop",
                counters: [7: 3, 0xFFFF_FFFF_FFFF_FFFF: -2],
                fired: [11, 12]
            ),
            EngineSnapshot.AppStateSnapshot(name: "com.example.mäil", counters: [:], fired: []),
        ]
        let sessions: [EngineSnapshot.SessionState] = (0..<count).map { (i: Int) -> EngineSnapshot.SessionState in
            richSession(i, app: apps[i % 2].name)
        }
        return EngineSnapshot(version: EngineSnapshot.currentVersion, apps: apps, sessions: sessions)
    }

    private static func richSession(_ i: Int, app: String) -> EngineSnapshot.SessionState {
        let sheet = EngineSnapshot.Entry(
            kind: 2,
            id: Array("sheet-\(i)".utf8),
            ts: 1_700_000_000_000 + Int64(i),
            style: 1,
            transition: -1,
            sizeClass: 0,
            navDepth: 3,
            buttonCount: 2,
            cancelIndex: -1,
            destructiveIndex: 1,
            inPopover: 0,
            title: Array("Delete “sheet \(i)”?".utf8)
        )
        let odd = EngineSnapshot.Entry(
            kind: 1,
            id: [],
            ts: .min,
            style: .max,
            transition: .min,
            sizeClass: 1,
            navDepth: 0,
            buttonCount: 0,
            cancelIndex: 0,
            destructiveIndex: -1,
            inPopover: 1
        )
        let stack: [EngineSnapshot.Entry] = i % 3 == 0 ? [] : [sheet, odd]
        let startedTs: Int64 = i == 1 ? .min : 1_699_999_999_000
        let lastTs: Int64 = i == 2 ? .min : 1_700_000_000_500
        let tasks: [UInt64] = i == 0 ? [] : [0xDEAD_BEEF, .max]
        let counters: [UInt64: Int64] = [1: 4, 2: .min, 3: .max]
        let windows: [UInt64: [Int64]] = [9: [1_700_000_000_000, 1_700_000_000_400], 10: []]
        let quiet: [UInt64: Int64] = [4: 1_700_000_010_000]
        return EngineSnapshot.SessionState(
            id: Array("session-\(i)".utf8),
            app: app,
            device: Int32(i % 3),
            sizeClass: 1,
            foreground: i % 2 == 0,
            stack: stack,
            maxModalDepth: 2,
            startedTs: startedTs,
            lastTs: lastTs,
            lastSeq: Int64(i) * 1000,
            lastUserActionTs: 1_700_000_000_100,
            lastUserActionControl: -1,
            runningTasks: tasks,
            lastTaskFinishedTs: .min,
            lastTaskFailedTs: .max,
            events: UInt64(i) + 40,
            alertsPresented: 3,
            presentations: 5,
            violations: .max,
            lastObserved: 1_700_000_000_600,
            counters: counters,
            windows: windows,
            fired: [5, 1, 3],
            quietUntil: quiet,
            locale: i % 2 == 1 ? Array("zh-Hans-CN".utf8) : nil
        )
    }

    private func decode(_ bytes: [UInt8]) throws(SnapshotFormatError) -> EngineSnapshot {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(SnapshotFormatError) in try EngineSnapshot.decodeBinary(buffer) }
        }.get()
    }

    func testRoundTripKeepsEveryField() throws {
        let snapshot = Self.richSnapshot(sessions: 6)
        let bytes = snapshot.binaryEncoded()
        XCTAssertEqual(Array(bytes.prefix(4)), Array("MWSN".utf8))
        XCTAssertEqual(try decode(bytes), snapshot)
        XCTAssertEqual(try decode(EngineSnapshot(version: 1, apps: [], sessions: []).binaryEncoded()).sessionCount, 0)
    }

    /// Empty and non-empty maps side by side, runs of one app, and an app the snapshot's
    /// app list lacks: the encoder's per-run app lookup and the decoder's shared empty maps
    /// give back exactly what went in.
    func testRoundTripWithEmptyMapsAndRunsOfOneApp() throws {
        var snapshot = Self.richSnapshot(sessions: 4)
        let apps = [
            "com.example.shop", "com.example.shop", "com.example.other", "com.example.other", "com.example.shop",
            "com.example.mäil",
        ]
        for (i, app) in apps.enumerated() {
            var session = snapshot.sessions[i % snapshot.sessions.count]
            session.id = Array("bare-\(i)".utf8)
            session.app = app
            if i % 2 == 0 {
                session.counters = [:]
                session.windows = [:]
                session.quietUntil = [:]
                session.fired = []
                session.runningTasks = []
                session.stack = []
            }
            snapshot.sessions.append(session)
        }
        let decoded = try decode(snapshot.binaryEncoded())
        XCTAssertEqual(decoded.sessions, snapshot.sessions)
        XCTAssertEqual(decoded.apps.map(\.name), ["com.example.shop", "com.example.mäil", "com.example.other"])
    }

    func testATypicalSessionTakesUnder150Bytes() throws {
        let one = EngineSnapshot.SessionState(
            id: Array("9f1c2a7e-5b1d-4c3e-8a6f-0d2b4e6a8c10".utf8),
            app: "com.example.shop",
            device: 0,
            sizeClass: 0,
            foreground: true,
            stack: [
                .init(
                    kind: 2,
                    id: Array("checkout-sheet".utf8),
                    ts: 1_700_000_000_000,
                    style: 1,
                    transition: 0,
                    sizeClass: 0,
                    navDepth: 1,
                    buttonCount: 2,
                    cancelIndex: 1,
                    destructiveIndex: -1,
                    inPopover: 0
                )
            ],
            maxModalDepth: 1,
            startedTs: 1_699_999_000_000,
            lastTs: 1_700_000_000_900,
            lastSeq: 412,
            lastUserActionTs: 1_700_000_000_800,
            lastUserActionControl: 3,
            runningTasks: [],
            lastTaskFinishedTs: .min,
            lastTaskFailedTs: .min,
            events: 412,
            alertsPresented: 2,
            presentations: 9,
            violations: 1,
            lastObserved: 1_700_000_000_950,
            counters: [0x1234_5678_9ABC_DEF0: 2],
            windows: [:],
            fired: [],
            quietUntil: [:]
        )
        let apps = [EngineSnapshot.AppStateSnapshot(name: "com.example.shop", counters: [:], fired: [])]
        let empty = EngineSnapshot(version: 1, apps: apps, sessions: []).binaryEncoded().count
        let thousand = EngineSnapshot(version: 1, apps: apps, sessions: Array(repeating: one, count: 1000))
            .binaryEncoded().count
        let perSession = Double(thousand - empty) / 1000
        XCTAssertLessThan(perSession, 150, "bytes per session")
    }

    func testAnEngineRestoresWhatItWrote() throws {
        let written = Self.richSnapshot(sessions: 50)
        let engine = Engine(catalog: RuleCatalog(), configuration: .init(), output: CollectingOutput())
        XCTAssertEqual(engine.restore(try decode(written.binaryEncoded())), 50)
        let again = engine.snapshot()
        XCTAssertEqual(again.sessions.map(\.id), written.sessions.map(\.id))
        XCTAssertEqual(again.sessions.map(\.lastSeq), written.sessions.map(\.lastSeq))
        XCTAssertEqual(again.sessions.map(\.counters), written.sessions.map(\.counters))
        XCTAssertEqual(again.sessions.map { $0.stack.map(\.id) }, written.sessions.map { $0.stack.map(\.id) })
        XCTAssertEqual(again.sessions.map { $0.stack.map(\.title) }, written.sessions.map { $0.stack.map(\.title) })
        XCTAssertEqual(Set(again.apps.map(\.name)), Set(written.apps.map(\.name)))
        let restoredAgain = Engine(catalog: RuleCatalog(), configuration: .init(), output: CollectingOutput())
        XCTAssertEqual(restoredAgain.restore(try decode(again.binaryEncoded())), 50)
    }

    func testASessionsLocaleSurvivesARestart() throws {
        let output = CollectingOutput()
        let pipeline = EventPipeline(catalog: RuleCatalog(), configuration: .init(), output: output)
        var start =
            #"{"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail","locale":"de_DE"}"#
        start.withUTF8 { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 0) }
        var plain = #"{"v":1,"type":"session.start","session":"S2","ts":1732290000000,"app":"com.example.mail"}"#
        plain.withUTF8 { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 0) }
        let written = pipeline.engine.snapshot()
        XCTAssertEqual(written.sessions.map(\.locale), [Array("de-DE".utf8), nil])
        let restored = Engine(catalog: RuleCatalog(), configuration: .init(), output: CollectingOutput())
        XCTAssertEqual(restored.restore(try decode(written.binaryEncoded())), 2)
        XCTAssertEqual(restored.snapshot().sessions.map(\.locale), [Array("de-DE".utf8), nil])
    }

    func testEveryTruncationIsRefused() {
        let bytes = Self.richSnapshot().binaryEncoded()
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try decode(Array(bytes.prefix(length))), "cut at \(length)")
        }
    }

    func testEverySingleBitFlipIsRefused() {
        let bytes = Self.richSnapshot().binaryEncoded()
        for index in bytes.indices {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[index] ^= 1 << bit
                XCTAssertThrowsError(try decode(damaged), "bit \(bit) of byte \(index)")
            }
        }
    }

    /// Format 2 had no titles in stack entries: a snapshot without entries reads the same in it.
    func testFormatTwoIsStillRead() throws {
        var snapshot = Self.richSnapshot(sessions: 3)
        for i in snapshot.sessions.indices { snapshot.sessions[i].stack = [] }
        var bytes = snapshot.binaryEncoded()
        bytes[4] = 2
        XCTAssertEqual(try decode(bytes), snapshot)
    }

    func testAnotherVersionAndJSONAreRefused() {
        var bytes = Self.richSnapshot().binaryEncoded()
        bytes[4] = 4
        XCTAssertThrowsError(try decode(bytes)) { XCTAssertEqual($0 as? SnapshotFormatError, .unsupportedVersion(4)) }
        bytes[4] = 1
        XCTAssertThrowsError(try decode(bytes)) { XCTAssertEqual($0 as? SnapshotFormatError, .unsupportedVersion(1)) }
        XCTAssertThrowsError(try decode(Array("{\"version\":1}".utf8))) {
            XCTAssertEqual($0 as? SnapshotFormatError, .notASnapshot)
        }
    }

    /// Random bodies under a valid header and checksum: the bounds checks, not the checksum, must hold.
    func testGarbledBodiesWithAValidChecksumNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        let template = Self.richSnapshot().binaryEncoded()
        var refused = 0
        for round in 0..<3000 {
            var bytes = template
            let header = EngineSnapshot.binaryHeaderSize
            if round % 2 == 0 {
                for _ in 0..<4 {
                    bytes[Int.random(in: header..<bytes.count, using: &generator)] = UInt8.random(
                        in: 0...255,
                        using: &generator
                    )
                }
            } else {
                bytes =
                    Array(bytes.prefix(header))
                    + (0..<Int.random(in: 0...200, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                bytes.withUnsafeMutableBytes { raw in
                    raw.storeBytes(of: UInt64(raw.count - header).littleEndian, toByteOffset: 16, as: UInt64.self)
                }
            }
            let checksum = bytes.withUnsafeBytes { FNV1a64.hash(UnsafeRawBufferPointer(rebasing: $0[header...])) }
            bytes.withUnsafeMutableBytes { $0.storeBytes(of: checksum.littleEndian, toByteOffset: 24, as: UInt64.self) }
            do { _ = try decode(bytes) } catch { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 1000)
    }
}
