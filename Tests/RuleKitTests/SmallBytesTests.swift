import XCTest

@testable import RuleKit

/// `SmallBytes`, the inline bytes of a message or evidence: appends of every length (the short
/// inline copies, `memcpy`, single bytes) give exactly the bytes appended, inline and past the
/// inline capacity onto the heap.
final class SmallBytesTests: XCTestCase {
    func testAppendsOfEveryLengthKeepEveryByteInlineAndOnTheHeap() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            var small = SmallBytes()
            var reference: [UInt8] = []
            // Up to ~400 bytes: past the 248 inline ones on most rounds.
            while reference.count < 60 + round * 2 {
                if Bool.random(using: &generator) && round % 3 == 0 {
                    let byte = UInt8.random(in: 0...255, using: &generator)
                    small.append(byte)
                    reference.append(byte)
                } else {
                    let part = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                    part.withUnsafeBufferPointer { small.append(contentsOf: $0) }
                    reference += part
                }
                XCTAssertEqual(small.count, reference.count)
            }
            XCTAssertEqual(small.array, reference, "round \(round)")
        }
    }

    func testEachLengthUpTo40AppendedAfterEachOffset() {
        for offset in 0..<24 {
            for length in 0...40 {
                var small = SmallBytes()
                let lead = [UInt8](repeating: 0xAA, count: offset)
                let part = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
                lead.withUnsafeBufferPointer { small.append(contentsOf: $0) }
                part.withUnsafeBufferPointer { small.append(contentsOf: $0) }
                XCTAssertEqual(small.array, lead + part, "\(length) bytes after \(offset)")
            }
        }
    }
}
