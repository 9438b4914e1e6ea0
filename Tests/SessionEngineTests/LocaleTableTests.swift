import EventDecoding
import ModalwatchABI
import XCTest

@testable import SessionEngine

/// `LocaleTable`: well-formed tags solved to share one probe run under the unkeyed hash (the
/// low bits of FNV-1a) spread out under the keyed one.
final class LocaleTableTests: XCTestCase {
    /// 1,024 tags (the table's capacity) `en-x-…` whose FNV-1a has the same low 11 bits (the same
    /// slot of 2,048 under the unkeyed hash): each is kept with its own number, and a lookup reads
    /// a few slots, not one per earlier tag.
    func testTagsSolvedToCollideWithoutTheSecretDoNotCollide() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let target: UInt64 = 0x5A5
        var tags: [[UInt8]] = []
        var head = Array("en-x-aaaaaa".utf8)
        outer: for n in 0... {
            // The first six letters of the private-use subtag spell `n` in base 36; the last two
            // are searched for a hash whose low 11 bits are `target`.
            var rest = n
            for i in (5..<11).reversed() {
                head[i] = alphabet[rest % 36]
                rest /= 36
            }
            let prefix = head.withUnsafeBytes { Hashing.fnv1a($0) }
            for a in alphabet {
                for b in alphabet {
                    let hash = [a, b].withUnsafeBytes { Hashing.fnv1a($0, prefix) }
                    guard hash & 0x7FF == target else { continue }
                    tags.append(head + [a, b])
                    if tags.count == LocaleTable.capacity { break outer }
                }
            }
        }
        for tag in tags.prefix(8) {
            XCTAssertEqual(tag.withUnsafeBytes { Hashing.fnv1a($0) } & 0x7FF, target)
            var normalized = [UInt8](repeating: 0, count: LocaleTag.maxBytes)
            let length = tag.withUnsafeBufferPointer {
                LocaleTag.normalize($0.baseAddress!, $0.count, into: &normalized)
            }
            XCTAssertEqual(length.map { Array(normalized.prefix($0)) }, tag, "a well-formed tag in its normalized form")
        }
        let table = LocaleTable()
        var numbers = Set<UInt16>()
        for tag in tags {
            let number = tag.withUnsafeBytes { bytes in
                table.number(of: mw_str(ptr: bytes.baseAddress?.assumingMemoryBound(to: CChar.self), len: bytes.count))
            }
            numbers.insert(number)
        }
        XCTAssertEqual(numbers.count, tags.count)
        XCTAssertFalse(numbers.contains(0))
        XCTAssertEqual(table.refused, 0)
        let probes = tags.map { table.probes($0) }
        XCTAssertLessThan(probes.max() ?? 0, 64, "the longest probe over 1,024 solved tags")
        XCTAssertLessThan(probes.reduce(0, +), 3 * tags.count, "the probes of all 1,024 lookups")
    }
}
