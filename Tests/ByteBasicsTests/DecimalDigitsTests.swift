import ByteBasics
import XCTest

/// The one decimal writer, against Swift's own `description` at the edges and in between.
final class DecimalDigitsTests: XCTestCase {
    func testSignedNumbersAreWrittenAsSwiftWritesThem() {
        var values: [Int64] = [
            0, 1, -1, 9, 10, -10, 99, 100, 1_732_290_000_000, -1_732_290_000_000, .max, .min, .max - 1, .min + 1,
        ]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power]
        }
        for value in values {
            var out: [UInt8] = [0x2A]
            DecimalDigits.append(value, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), "*" + value.description, "\(value)")
            XCTAssertEqual(
                DecimalDigits.withDigits(of: value) { String(decoding: $0, as: UTF8.self) },
                value.description
            )
        }
    }

    func testUnsignedNumbersUpToTheLargestAreWrittenAsSwiftWritesThem() {
        for value: UInt64 in [0, 7, 10, 18_446_744_073_709_551_615, 10_000_000_000_000_000_000, UInt64(Int64.max) + 1] {
            var out: [UInt8] = []
            DecimalDigits.append(value, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), value.description)
            XCTAssertLessThanOrEqual(out.count, DecimalDigits.maxCount)
        }
    }
}
