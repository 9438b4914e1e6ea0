import ByteBasics
import XCTest

/// The shared primitives against published vectors and the behaviours their callers rely on.
final class ByteBasicsTests: XCTestCase {
    func testTheShardBucketsOfTheSpec() {
        // spec/scale.md: FNV-1a 64 of the shard key, modulo 256.
        XCTAssertEqual(FNV1a64.hash("com.example.mail") % 256, 0x67)
        XCTAssertEqual(FNV1a64.hash("com.example.photos") % 256, 0xf5)
        XCTAssertEqual(FNV1a64.hash("a") % 256, 0x8c)
        XCTAssertEqual(FNV1a64.hash("") % 256, 0x25)
    }

    func testModalwatchsBasisIsTheHeadersMwHash() {
        // mw_hash("fg", 2) in modalwatch_module.h: FNV-1a from 1469598103934665603.
        var expected: UInt64 = 1_469_598_103_934_665_603
        for byte in "fg".utf8 { expected = (expected ^ UInt64(byte)) &* 1_099_511_628_211 }
        XCTAssertEqual(FNV1a64.hash("fg", continuing: FNV1a64.modalwatchOffsetBasis), expected)
    }

    func testFNV1a64MatchesThePublishedVectors() {
        // From the FNV reference test suite (http://www.isthe.com/chongo/src/fnv/test_fnv.c).
        XCTAssertEqual(FNV1a64().value, 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(FNV1a64.hash("a"), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(FNV1a64.hash("foobar"), 0x8594_4171_f739_67e8)
        let foobar = "foobar"
        XCTAssertEqual(FNV1a64.hash(foobar), 0x8594_4171_f739_67e8, "a String hashes as its UTF-8")
        XCTAssertEqual(Array("foobar".utf8).withUnsafeBytes { FNV1a64.hash($0) }, 0x8594_4171_f739_67e8)
    }

    func testAHashContinuesWhereItStopped() {
        let whole = FNV1a64.hash("foobar")
        let half = FNV1a64.hash("foo")
        XCTAssertEqual(FNV1a64.hash("bar", continuing: half), whole)
        var hasher = FNV1a64(continuing: half)
        hasher.add("bar" as StaticString)
        XCTAssertEqual(hasher.value, whole)
    }

    func testUTF8DecodingReadsScalarsAndRepairsBadBytes() {
        let bytes: [UInt8] = Array("a€😀".utf8) + [0xC0, 0xAF, 0xE2, 0x82]
        bytes.withUnsafeBufferPointer { buffer in
            XCTAssertTrue(UTF8Decoding.scalar(in: buffer, at: 0) == ("a", 1))
            XCTAssertTrue(UTF8Decoding.scalar(in: buffer, at: 1) == ("€", 3))
            XCTAssertTrue(UTF8Decoding.scalar(in: buffer, at: 4) == ("😀", 4))
            XCTAssertTrue(UTF8Decoding.scalar(in: buffer, at: 8) == ("\u{FFFD}", 1), "an overlong form")
            XCTAssertTrue(UTF8Decoding.scalar(in: buffer, at: 10) == ("\u{FFFD}", 1), "a sequence cut short")
            XCTAssertFalse(UTF8Decoding.isValid(buffer))
            XCTAssertTrue(UTF8Decoding.isValid(UnsafeBufferPointer(rebasing: buffer[0..<8])))
        }
        let surrogate: [UInt8] = [0xED, 0xA0, 0x80]
        surrogate.withUnsafeBufferPointer { XCTAssertFalse(UTF8Decoding.isValid($0)) }
    }

    func testLineSeparatorsAreEscapedOnlyWhenAsked() {
        let text = Array("a\u{2028}b\u{2029}\"".utf8)
        func escaped(_ lineSeparators: Bool) -> String {
            text.withUnsafeBytes { bytes in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONStringEscaper.maxEscapedLength(bytes.count))
                { room in
                    let written = JSONStringEscaper.writeEscaped(
                        bytes,
                        to: room.baseAddress!,
                        escapingLineSeparators: lineSeparators
                    )
                    return String(decoding: UnsafeBufferPointer(rebasing: room[0..<written]), as: UTF8.self)
                }
            }
        }
        XCTAssertEqual(escaped(true), #"a\u2028b\u2029\""#)
        XCTAssertEqual(escaped(false), "a\u{2028}b\u{2029}\\\"")
    }
}
