@testable import SessionEngine
import RuleHost
import XCTest

/// `SessionTable`: ids found by the bytes in the probe entry (short ids entirely there, long
/// ones by their first 20 bytes and then the rest), through growth, removal and reuse.
final class SessionTableTests: XCTestCase {
    private let app = AppState(
        name: "com.example.table", profile: RuleProfile(catalog: RuleCatalog(), configuration: .init(), app: nil))

    private func session(_ id: [UInt8]) -> Session {
        let bytes = StableBytes(id)
        return Session(id: bytes, idHash: Hashing.fnv1a(bytes.buffer), app: app)
    }

    private func find(_ table: SessionTable, _ id: [UInt8]) -> Session? {
        id.withUnsafeBytes { table.find($0, hash: Hashing.fnv1a($0)) }
    }

    func testFindsEveryIdAndNoOther() {
        let table = SessionTable()
        // Ids of every length around the 20 bytes the entry holds, ids that differ only after
        // them, ids that are a prefix of another, an empty id and one with a zero byte.
        var ids: [[UInt8]] = [[], [0], [0, 0], Array("s".utf8)]
        for length in [1, 7, 19, 20, 21, 33, 64] {
            for n in 0..<400 { ids.append(Array(String(repeating: "x", count: length).utf8) + Array("-\(n)".utf8)) }
        }
        let long = Array(String(repeating: "p", count: 40).utf8)
        ids.append(long)
        ids.append(long + [0])
        ids.append(Array(long.prefix(20)))
        var sessions: [Session] = []
        for id in ids {
            XCTAssertNil(find(table, id))
            let s = session(id)
            table.insert(s)
            sessions.append(s)
        }
        XCTAssertEqual(table.count, ids.count)
        for (id, s) in zip(ids, sessions) { XCTAssertTrue(find(table, id) === s, "id of \(id.count) bytes") }
        XCTAssertNil(find(table, long + [1]))
        XCTAssertNil(find(table, Array(long.prefix(21))))

        // Remove every other one; the rest are still found, the removed ones not; add them back.
        for (i, s) in sessions.enumerated() where i % 2 == 0 { table.remove(s) }
        XCTAssertEqual(table.count, ids.count / 2)
        for (i, (id, s)) in zip(ids, sessions).enumerated() {
            if i % 2 == 0 { XCTAssertNil(find(table, id)) } else { XCTAssertTrue(find(table, id) === s) }
        }
        for (i, s) in sessions.enumerated() where i % 2 == 0 { table.insert(s) }
        for (id, s) in zip(ids, sessions) { XCTAssertTrue(find(table, id) === s) }
        // The most recently inserted is the most recently active; touching moves one to the front.
        table.touch(sessions[1])
        XCTAssertTrue(table.allSessions().first === sessions[1])
    }
}
