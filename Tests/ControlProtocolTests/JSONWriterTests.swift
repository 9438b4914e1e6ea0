import ControlProtocol
import Foundation
import XCTest

/// The writer writes what Foundation's JSONSerialization (with `.sortedKeys`) writes: the bytes
/// the daemon's replies have always had.
final class JSONWriterTests: XCTestCase {
    /// The same tree for both writers.
    private struct Case {
        let value: JSONValue
        let foundation: Any
    }

    private func foundationBytes(_ object: Any) throws -> [UInt8] {
        [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]))
    }

    func testKeysAreOrderedAsJSONSerializationOrdersThem() throws {
        // Digits compare by value, punctuation before digits before letters, shorter first.
        let keys = [
            "events_rejected", "events", "events_per_second", "a10", "a9", "a_b", "a-b", "a.b", "a/b", "a b", "a:b",
            "violations_rate_limited_by_rule", "violations_rate_limited", "v", "ok", "uptime_s", "2h", "15m", "x1y",
            "x01",
        ]
        var value: [String: JSONValue] = [:]
        var foundation: [String: Any] = [:]
        for (index, key) in keys.enumerated() {
            value[key] = .int(index)
            foundation[key] = index
        }
        XCTAssertEqual(
            String(decoding: JSONWriter.encode(value), as: UTF8.self),
            String(decoding: try foundationBytes(foundation), as: UTF8.self)
        )
    }

    func testValuesAreWrittenAsJSONSerializationWritesThem() throws {
        let cases: [Case] = [
            Case(
                value: .string("a/b \"q\" \\ \n\t\u{1}\u{1F} é 漢 🙂"),
                foundation: "a/b \"q\" \\ \n\t\u{1}\u{1F} é 漢 🙂"
            ),
            Case(value: .number(0.1), foundation: 0.1),
            Case(value: .number(12.5), foundation: 12.5),
            Case(value: .number(3), foundation: 3.0),
            Case(value: .number(1e-7), foundation: 1e-7),
            Case(value: .number(123456789.123), foundation: 123456789.123),
            Case(value: .integer(-42), foundation: -42),
            Case(value: .integer(Int64.min), foundation: Int64.min),
            Case(value: .unsigned(UInt64.max), foundation: UInt64.max),
            Case(value: .bool(true), foundation: true),
            Case(value: .null, foundation: NSNull()),
            Case(
                value: .array([.int(1), .string("x"), .array([]), .object([:])]),
                foundation: [1, "x", [Any](), [String: Any]()] as [Any]
            ),
        ]
        for item in cases {
            XCTAssertEqual(
                String(decoding: JSONWriter.encode(item.value), as: UTF8.self),
                String(decoding: try foundationBytes(item.foundation), as: UTF8.self),
                "\(item.value)"
            )
        }
    }

    /// `check --format sarif` writes with these options: the same bytes as JSONSerialization's.
    func testPrettyOutputWithoutEscapedSlashesIsJSONSerializations() throws {
        let value: JSONValue = .object([
            "$schema": .string("https://example.com/a/b.json"),
            "runs": .array([
                .object([
                    "empty_array": .array([]), "empty_object": .object([:]), "n": .integer(3), "x": .number(0.5),
                    "nested": .object(["list": .array([.string("a/b"), .null, .bool(false)])]),
                ])
            ]),
        ])
        let foundation: [String: Any] = [
            "$schema": "https://example.com/a/b.json",
            "runs": [
                [
                    "empty_array": [Any](), "empty_object": [String: Any](), "n": 3, "x": 0.5,
                    "nested": ["list": ["a/b", NSNull(), false] as [Any]],
                ] as [String: Any]
            ],
        ]
        let expected = try JSONSerialization.data(
            withJSONObject: foundation,
            options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        )
        XCTAssertEqual(
            String(
                decoding: JSONWriter.encode(value, options: [.prettyPrinted, .withoutEscapingSlashes]),
                as: UTF8.self
            ),
            String(decoding: expected, as: UTF8.self)
        )
    }

    func testRawJSONGoesInUnchanged() {
        let published = #"{"z":1,"a":"x\/y"}"#
        let bytes = JSONWriter.encode([
            "violations": .array([.raw(RawJSON(bytes: Array(published.utf8)))]), "count": .int(1),
        ])
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), #"{"count":1,"violations":[{"z":1,"a":"x\/y"}]}"#)
    }

    func testNonFiniteNumbersAreNull() {
        XCTAssertEqual(JSONWriter.encode(.number(.nan)), Array("null".utf8))
        XCTAssertEqual(JSONWriter.encode(.number(.infinity)), Array("null".utf8))
    }
}
