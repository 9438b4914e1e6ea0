@testable import SessionEngine
import XCTest

/// `ShortBytes`: in-place comparison and copy agree with byte-by-byte ones at every length
/// around the word sizes and the in-place limit, at unaligned addresses, for a difference at
/// every position; a copy writes exactly its bytes.
final class ShortBytesTests: XCTestCase {
    private let lengths = Array(0...(ShortBytes.inlineLimit + 9)) + [127, 128, 320]

    func testEqualFindsADifferenceAtEveryPosition() {
        for length in lengths {
            // Offsets 1 and 3: never aligned, and both buffers at different alignments.
            var a = [UInt8](repeating: 0, count: length + 1)
            var b = [UInt8](repeating: 0, count: length + 3)
            for i in 0..<length {
                a[1 + i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11)
                b[3 + i] = a[1 + i]
            }
            XCTAssertTrue(equal(a, 1, b, 3, length), "length \(length)")
            for position in 0..<length {
                b[3 + position] ^= 0x20
                XCTAssertFalse(equal(a, 1, b, 3, length), "length \(length), difference at \(position)")
                b[3 + position] ^= 0x20
            }
        }
    }

    func testCopyWritesExactlyTheBytes() {
        for length in lengths {
            let source = (0..<(length + 5)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 7) }
            var destination = [UInt8](repeating: 0xEE, count: length + 16)
            source.withUnsafeBytes { from in
                destination.withUnsafeMutableBytes { to in
                    ShortBytes.copy(to: to.baseAddress! + 3, from: from.baseAddress! + 5, count: length)
                }
            }
            XCTAssertEqual(Array(destination[3..<(3 + length)]), Array(source[5..<(5 + length)]), "length \(length)")
            XCTAssertEqual(Array(destination[0..<3]), [0xEE, 0xEE, 0xEE], "length \(length)")
            XCTAssertTrue(destination[(3 + length)...].allSatisfy { $0 == 0xEE }, "length \(length): wrote past the end")
        }
    }

    private func equal(_ a: [UInt8], _ aOffset: Int, _ b: [UInt8], _ bOffset: Int, _ count: Int) -> Bool {
        a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in ShortBytes.equal(x.baseAddress! + aOffset, y.baseAddress! + bOffset, count: count) }
        }
    }
}
