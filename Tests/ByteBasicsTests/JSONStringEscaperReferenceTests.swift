import ByteBasics
import XCTest

/// The escaper (`mw_json_escape`: 16 bytes at a time, then byte by byte) against a reference that
/// reads one byte at a time, on every length around the block sizes with a special byte at each
/// place, and on random bytes.
final class JSONStringEscaperReferenceTests: XCTestCase {
    /// What `JSONStringEscaper` promises, one byte at a time.
    private func reference(_ bytes: [UInt8], lineSeparators: Bool) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        bytes.withUnsafeBufferPointer { buffer in
            guard let p = buffer.baseAddress else { return }
            while i < bytes.count {
                let b = bytes[i]
                if b >= 0x80 {
                    let length = UTF8Decoding.validSequenceLength(p, at: i, count: bytes.count)
                    if length == 3, lineSeparators, b == 0xE2, bytes[i + 1] == 0x80,
                        bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9
                    {
                        out += Array((bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                        i += 3
                    } else if length > 0 {
                        out += bytes[i..<(i + length)]
                        i += length
                    } else {
                        out += [0xEF, 0xBF, 0xBD]
                        i += 1
                    }
                    continue
                }
                switch b {
                case 0x22: out += Array(#"\""#.utf8)
                case 0x5C: out += Array(#"\\"#.utf8)
                case 0x0A: out += Array(#"\n"#.utf8)
                case 0x0D: out += Array(#"\r"#.utf8)
                case 0x09: out += Array(#"\t"#.utf8)
                case 0x08: out += Array(#"\b"#.utf8)
                case 0x0C: out += Array(#"\f"#.utf8)
                case 0..<0x20:
                    let hex = String(b, radix: 16)
                    out += Array(("\\u00" + (hex.count == 1 ? "0" : "") + hex).utf8)
                default: out.append(b)
                }
                i += 1
            }
        }
        return out
    }

    private func escaped(_ bytes: [UInt8], lineSeparators: Bool) -> [UInt8] {
        // Exactly the promised room, with guard bytes after it: nothing may be written past the room.
        let room = JSONStringEscaper.maxEscapedLength(bytes.count)
        var out = [UInt8](repeating: 0xA5, count: room + 32)
        let written = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer {
                JSONStringEscaper.writeEscaped(input, to: $0.baseAddress!, escapingLineSeparators: lineSeparators)
            }
        }
        XCTAssertLessThanOrEqual(written, room)
        XCTAssertEqual(Array(out[room...]), [UInt8](repeating: 0xA5, count: 32), "written past the room")
        return Array(out[..<written])
    }

    private func check(_ bytes: [UInt8], _ label: @autoclosure () -> String) {
        for lineSeparators in [false, true] {
            XCTAssertEqual(
                escaped(bytes, lineSeparators: lineSeparators),
                reference(bytes, lineSeparators: lineSeparators),
                "\(label()), line separators \(lineSeparators)"
            )
        }
    }

    func testASpecialCharacterAtEveryPlaceOfEveryLengthAroundTheBlocks() {
        let specials: [[UInt8]] = [
            [0x22], [0x5C], [0x0A], [0x00], [0x1F], [0x7F], [0xE2, 0x80, 0x9C], [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9],
            [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0xE2, 0x80], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
        ]
        for length in 0...40 {
            let plain = (0..<length).map { UInt8(0x41 + $0 % 26) }
            check(plain, "plain, \(length) bytes")
            for special in specials {
                for position in 0...length {
                    var bytes = plain
                    bytes.insert(contentsOf: special, at: position)
                    check(bytes, "\(special) at \(position) of \(length)")
                }
            }
        }
    }

    func testRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] =
            Array("abc \"\\\n\t".utf8) + [
                0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC2, 0xE2, 0x80, 0xA8, 0xED, 0xF0, 0xF4, 0x9F, 0xFF,
            ]
        for round in 0..<3_000 {
            let length = Int.random(in: 0...80, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator)
                    ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            check(bytes, "round \(round): \(bytes)")
        }
    }

    /// Every length to 80 (the 32-byte, 16-byte, word and byte steps, and their ends), every
    /// position of the byte found, starting from 0 to 3 bytes in.
    func testFirstByteAtLeast7F() {
        for length in 0...80 {
            for from in 0...min(3, length) {
                for position in from...length {
                    for byte: UInt8 in [0x7F, 0x80, 0xFF] {
                        var bytes = [UInt8](repeating: 0x7E, count: length)
                        if position < length { bytes[position] = byte }
                        // A byte before `from` is not looked at.
                        if from > 0 { bytes[from - 1] = 0xFF }
                        let found = bytes.withUnsafeBufferPointer { buffer -> Int in
                            guard let base = buffer.baseAddress else { return 0 }
                            return StringBytes.firstAtLeast7F(base, from: from, count: length)
                        }
                        if found != position {
                            XCTFail("\(byte) at \(position) of \(length), from \(from): found \(found)")
                        }
                    }
                }
            }
        }
    }
}
