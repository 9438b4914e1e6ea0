import ModalwatchABI
import RuleHost
import XCTest

@testable import SessionEngine

/// `SessionTable`: ids found by the bytes in the probe entry (short ids entirely there, long
/// ones by their first 20 bytes and then the rest), through growth, removal and reuse; and the
/// arena's records, reused by the next session with their memory and none of their state.
final class SessionTableTests: XCTestCase {
    private let app = AppState(
        name: "com.example.table",
        profile: RuleProfile(catalog: RuleCatalog(), configuration: .init(), app: nil)
    )

    private func add(_ table: SessionTable, _ id: [UInt8]) -> Session {
        id.withUnsafeBytes { table.add(id: $0, hash: Hashing.fnv1a($0), app: app) }
    }

    private func find(_ table: SessionTable, _ id: [UInt8]) -> Session? {
        id.withUnsafeBytes { table.find($0) }
    }

    /// Ids solved to collide under an unkeyed form of the table hash (the prefix words multiplied
    /// by fixed odd constants and combined by XOR, which is invertible) spread out under the keyed
    /// one: a lookup reads a few entries, not one per earlier id.
    func testIdsSolvedToCollideWithoutTheSecretDoNotCollide() {
        let k1: UInt64 = 0x9E37_79B9_7F4A_7C15
        let k2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        var inverse: UInt64 = k2  // Newton's iteration for k2's inverse mod 2^64
        for _ in 0..<6 { inverse = inverse &* (2 &- k2 &* inverse) }
        XCTAssertEqual(k2 &* inverse, 1)
        let prefix0: UInt32 = 0x4141_4141
        let target: UInt64 = 0x0123_4567_89AB_CDEF
        func word(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        let ids: [[UInt8]] = (0..<5000).map { n in
            let prefix1 = UInt64(n)
            let prefix2 = (target ^ (prefix1 &* k1) ^ (UInt64(prefix0) << 32 | 20)) &* inverse
            return word(UInt64(prefix0)).prefix(4) + word(prefix1) + word(prefix2)
        }
        let table = SessionTable()
        for id in ids { _ = add(table, id) }
        let longest = ids.map { id in id.withUnsafeBytes { table.probes($0) } }.max() ?? 0
        XCTAssertLessThan(longest, 64, "the longest probe over 5,000 solved ids")
        for id in ids { XCTAssertNotNil(find(table, id)) }
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
        for id in ids {
            XCTAssertNil(find(table, id))
            XCTAssertEqual(Array(add(table, id).idBuffer), id)
        }
        XCTAssertEqual(table.count, ids.count)
        for id in ids { XCTAssertEqual(find(table, id).map { Array($0.idBuffer) }, id, "id of \(id.count) bytes") }
        XCTAssertNil(find(table, long + [1]))
        XCTAssertNil(find(table, Array(long.prefix(21))))

        // Remove every other one; the rest are still found, the removed ones not; add them back,
        // into the freed records (the arena does not grow).
        let slots = table.slotCount
        for (i, id) in ids.enumerated() where i % 2 == 0 { table.remove(find(table, id)!) }
        XCTAssertEqual(table.count, ids.count - (ids.count + 1) / 2)
        for (i, id) in ids.enumerated() {
            if i % 2 == 0 {
                XCTAssertNil(find(table, id))
            } else {
                XCTAssertEqual(find(table, id).map { Array($0.idBuffer) }, id)
            }
        }
        for (i, id) in ids.enumerated() where i % 2 == 0 { _ = add(table, id) }
        XCTAssertEqual(table.slotCount, slots)
        for id in ids { XCTAssertEqual(find(table, id).map { Array($0.idBuffer) }, id) }
        // The most recently added is the most recently active; touching moves one to the front.
        table.touch(find(table, ids[1])!)
        XCTAssertEqual(table.allSessions().first, find(table, ids[1]))
        XCTAssertEqual(table.leastRecentlyActive, find(table, ids[1 + 2]))
    }

    private static func str(_ text: StaticString) -> mw_str {
        mw_str(ptr: UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self), len: text.utf8CodeUnitCount)
    }

    func testAReusedRecordHoldsNothingOfTheSessionBefore() {
        let table = SessionTable()
        let old = add(table, Array("a-session-id-longer-than-twenty-bytes".utf8))
        old.push(
            StackEntry(kind: MW_KIND_MODAL.rawValue, ts: 5),
            id: Self.str("m1"),
            title: Self.str("Title")
        )
        old.addRunningTask(7)
        _ = old.counterAdd(11, 3)
        _ = old.windowPush(100, key: 12, window: 1000, limit: 4)
        _ = old.fire(13)
        old.setQuiet(14, until: 200)
        old.startedTs = 1
        old.lastTs = 100
        old.lastSeq = 9
        old.events = 4
        old.violations = 2
        old.foreground = false
        table.remove(old)

        let new = add(table, Array("b".utf8))
        XCTAssertEqual(new, old, "the freed record is reused")
        XCTAssertEqual(Array(new.idBuffer), Array("b".utf8))
        XCTAssertTrue(new.stack.isEmpty)
        XCTAssertEqual(new.modalDepth, 0)
        XCTAssertEqual(new.maxModalDepth, 0)
        XCTAssertTrue(new.runningTasks.isEmpty)
        XCTAssertTrue(new.counters.isEmpty)
        XCTAssertTrue(new.windows.isEmpty)
        XCTAssertTrue(new.fired.isEmpty)
        XCTAssertTrue(new.quietUntil.isEmpty)
        XCTAssertEqual(new.startedTs, .min)
        XCTAssertEqual(new.lastTs, .min)
        XCTAssertEqual(new.lastSeq, 0)
        XCTAssertEqual(new.events, 0)
        XCTAssertEqual(new.violations, 0)
        XCTAssertTrue(new.foreground)
        XCTAssertNil(find(table, Array("a-session-id-longer-than-twenty-bytes".utf8)))
        XCTAssertEqual(find(table, Array("b".utf8)), new)
    }
}

/// The stack's entries point into the session's presentation arena (the rules get them as
/// they are kept): they must follow the arena wherever it moves.
final class SessionStackPlacementTests: XCTestCase {
    private let app = AppState(
        name: "com.example.stack",
        profile: RuleProfile(catalog: RuleCatalog(), configuration: .init(), app: nil)
    )

    private static func str(_ bytes: [UInt8], _ body: (mw_str) -> Void) {
        bytes.withUnsafeBytes { body(mw_str(ptr: $0.baseAddress?.assumingMemoryBound(to: CChar.self), len: $0.count)) }
    }

    private func push(_ session: Session, id: String, title: String) {
        Self.str(Array(id.utf8)) { idStr in
            Self.str(Array(title.utf8)) { titleStr in
                session.push(StackEntry(kind: MW_KIND_ALERT.rawValue, ts: 1), id: idStr, title: titleStr)
            }
        }
    }

    private func contents(_ session: Session) -> [String] {
        session.stack.map { entry in
            String(decoding: entry.idBytes, as: UTF8.self) + "|" + String(decoding: entry.titleBytes, as: UTF8.self)
        }
    }

    func testEntriesHeldInTheSlotFollowTheArenaWhenTheTableGrows() {
        let table = SessionTable()
        let first = Array("first".utf8).withUnsafeBytes { table.add(id: $0, hash: Hashing.fnv1a($0), app: app) }
        push(first, id: "a1", title: "Delete?")
        push(first, id: "a2", title: "Save?")
        // Enough sessions that the arena of slots moves (it starts with room for 256).
        for n in 0..<1000 {
            _ = Array("s\(n)".utf8).withUnsafeBytes { table.add(id: $0, hash: Hashing.fnv1a($0), app: app) }
        }
        let moved = Array("first".utf8).withUnsafeBytes { table.find($0) }!
        XCTAssertEqual(contents(moved), ["a1|Delete?", "a2|Save?"])
        XCTAssertEqual(moved.indexOf(id: mw_str(ptr: moved.stack[1].view.id.ptr, len: 2)), 1)
    }

    func testEntriesFollowTheArenaOutOfTheSlotAndTheBottomsRemoval() {
        let table = SessionTable()
        let session = Array("s".utf8).withUnsafeBytes { table.add(id: $0, hash: Hashing.fnv1a($0), app: app) }
        var expected: [String] = []
        for n in 0..<40 {
            push(session, id: "presentation-\(n)", title: "A title long enough to leave the slot \(n)")
            expected.append("presentation-\(n)|A title long enough to leave the slot \(n)")
            XCTAssertEqual(contents(session), expected)
        }
        session.removeBottom()
        expected.removeFirst()
        XCTAssertEqual(contents(session), expected)
        session.pop(downTo: 10)
        XCTAssertEqual(contents(session), Array(expected.prefix(10)))
        push(session, id: "again", title: "")
        XCTAssertEqual(contents(session), Array(expected.prefix(10)) + ["again|"])
    }

    func testAPoolBlockGivenBackIsTheNextOfItsSize() {
        var pool = SpillPool()
        let a = pool.allocate(byteCount: 100)
        let b = pool.allocate(byteCount: 100)
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(SpillPool.blockSize(100), 128)
        pool.deallocate(a, byteCount: 100)
        XCTAssertEqual(pool.allocate(byteCount: 128), a, "the block given back, of the same size")
        let small = pool.allocate(byteCount: 8)
        XCTAssertNotEqual(small, a)
        XCTAssertNotEqual(small, b)
        let large = pool.allocate(byteCount: 100_000)
        large.storeBytes(of: 7, toByteOffset: 99_992, as: Int64.self)
        pool.deallocate(large, byteCount: 100_000)
        // Blocks from many chunks stay apart.
        var seen = Set<UnsafeMutableRawPointer>()
        for _ in 0..<5000 { XCTAssertTrue(seen.insert(pool.allocate(byteCount: 256)).inserted) }
    }
}
