import ByteBasics
import SessionEngine
import XCTest

/// `JSONBuffer`'s number writers (decimal and hex, eight digits at a time) against
/// the standard library's formatting, at every digit count and every hex digit.
final class JSONBufferTests: XCTestCase {
    private func written(_ write: (inout JSONBuffer) -> Void) -> String {
        var buffer = JSONBuffer(capacity: 64)
        buffer.raw("[")
        write(&buffer)
        buffer.raw("]")
        return buffer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    func testIntegersAtEveryLengthAndBoundary() {
        var values: [Int64] = [
            0, 1, 9, 10, 11, 19, 99, 100, 101, 999, 1000, .max, .min, .max - 1, .min + 1, 1_732_290_025_875,
        ]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, power * 5 / 3]
        }
        values += values.map { 0 &- $0 }  // (Int64.min stays itself)
        for value in values {
            XCTAssertEqual(written { $0.integer(value) }, "[\(value)]", "integer \(value)")
        }
    }

    func testIntegersWithZerosInsideAndAtRandom() {
        var values: [Int64] = [
            100_000_001, 1_000_000_000_000, 10_203_040_506_070_809, 1_732_290_000_000, 1_700_000_000_007, 20_000_000,
        ]
        // Every digit count, with digits drawn at random (a fixed seed), many of them zero.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let digits = Int(state >> 59) % 18 + 1
            var value: Int64 = 0
            for position in 0..<digits {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let digit = Int64(state >> 61) < 3 ? 0 : Int64((state >> 33) % 10)
                value = value * 10 + (position == 0 ? max(digit, 1) : digit)
            }
            values.append(state & 1 == 0 ? value : -value)
        }
        for value in values where written({ $0.integer(value) }) != "[\(value)]" {
            XCTFail("integer \(value) written as \(written { $0.integer(value) })")
        }
    }

    func testRawBytesOfEveryShortLength() {
        let source = (0..<48).map { UInt8(0x41 + $0) }
        var buffer = JSONBuffer(capacity: 64)
        var expected: [UInt8] = []
        for length in 0...40 {
            source.withUnsafeBytes { buffer.raw(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
            buffer.byte(0x2C)
            expected += source[0..<length] + [0x2C]
        }
        XCTAssertEqual(buffer.bytes, expected)
    }

    func testIntegersInARow() {
        XCTAssertEqual(
            written { b in
                b.integer(7)
                b.raw(",")
                b.integer(-42)
                b.raw(",")
                b.integer(1_000_000)
            },
            "[7,-42,1000000]"
        )
    }

    func testHexOfEveryDigitInEveryPlace() {
        var values: [UInt64] = [
            0, 1, 0xF, 0x10, .max, 0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 0x8000_0000_0000_0000,
        ]
        for shift in stride(from: 0, to: 64, by: 4) {
            for digit in UInt64(0)...15 { values.append(digit << UInt64(shift)) }
        }
        for value in values {
            let expected = String(repeating: "0", count: 16 - String(value, radix: 16).count) + String(value, radix: 16)
            XCTAssertEqual(written { $0.hex64(value) }, "[\(expected)]", "hex \(value)")
        }
    }

    func testGrowsPastItsCapacity() {
        var buffer = JSONBuffer(capacity: 64)
        for i in 0..<100 {
            buffer.integer(Int64(i) * 1_000_000_007)
            buffer.hex64(UInt64(i))
        }
        let expected = (0..<100).map { i in
            let hex = String(UInt64(i), radix: 16)
            return "\(Int64(i) * 1_000_000_007)" + String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        XCTAssertEqual(buffer.withBytes { String(decoding: $0, as: UTF8.self) }, expected)
    }

    /// The word-at-a-time copy of plain text hands over to the escaper at the first byte that
    /// needs a look, wherever it is: the result is the escaper's on the whole string.
    func testStringsWithAByteToEscapeAtEveryPosition() {
        let specials: [[UInt8]] = [
            [0x22], [0x5C], [0x0A], [0x01], [0x7F], Array("é".utf8), Array("\u{2028}".utf8), [0xFF],
        ]
        for length in 0..<26 {
            let plain = (0..<length).map { UInt8(0x61 + $0 % 26) }
            XCTAssertEqual(writtenString(plain), escaped(plain), "plain, \(length) bytes")
            for position in 0...length {
                for special in specials {
                    var bytes = plain
                    bytes.insert(contentsOf: special, at: position)
                    XCTAssertEqual(writtenString(bytes), escaped(bytes), "\(special) at \(position) of \(length)")
                }
            }
        }
    }

    private func writtenString(_ bytes: [UInt8]) -> [UInt8] {
        var buffer = JSONBuffer(capacity: 64)
        buffer.raw("x")
        bytes.withUnsafeBytes { buffer.string($0) }
        return buffer.withBytes { Array($0) }
    }

    private func escaped(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = Array("x\"".utf8)
        let room = UnsafeMutablePointer<UInt8>.allocate(capacity: JSONStringEscaper.maxEscapedLength(bytes.count) + 1)
        defer { room.deallocate() }
        let n = bytes.withUnsafeBytes { JSONStringEscaper.writeEscaped($0, to: room) }
        out += UnsafeBufferPointer(start: room, count: n)
        out.append(0x22)
        return out
    }
}
