import EventDecoding
import XCTest

/// Keys are matched on loaded words, with a general path for escaped keys and keys near the payload's
/// end; integers are read while scanned. These tests reach every known key and every number path.
final class EventDecoderKeyTests: XCTestCase {
    /// Each top-level field, with an event type that has it and what that type needs besides.
    static let fields: [(key: String, type: String, extra: String)] = [
        ("v", "session.end", ""), ("type", "session.end", ""), ("session", "session.end", ""),
        ("ts", "session.end", ""), ("seq", "session.end", ""), ("app", "session.end", ""),
        ("app_version", "session.start", #""app":"a""#), ("os", "session.start", #""app":"a""#),
        ("device", "session.start", #""app":"a""#), ("size_class", "session.start", #""app":"a""#),
        ("control", "user.action", ""), ("label", "user.action", ""), ("destructive", "user.action", ""),
        ("task", "task.progress", #""state":"started""#), ("state", "task.progress", #""task":"t""#),
        ("id", "alert.presented", ""), ("title", "alert.presented", #""id":"a""#),
        ("message", "alert.presented", #""id":"a""#), ("buttons", "alert.presented", #""id":"a""#),
        ("text_fields", "alert.presented", #""id":"a""#), ("button", "alert.dismissed", #""id":"a""#),
        ("via", "alert.dismissed", #""id":"a""#), ("in_popover", "sheet.presented", #""id":"a""#),
        ("from_popover", "sheet.presented", #""id":"a""#), ("background", "sheet.presented", #""id":"a""#),
        ("style", "modal.presented", #""id":"a""#), ("transition", "modal.presented", #""id":"a""#),
        ("unsaved_changes", "modal.dismissed", #""id":"a""#), ("confirmed", "modal.dismissed", #""id":"a""#),
        ("screen", "nav.push", ""),
    ]

    /// The key written with its first byte as a \u escape (the general path: unescaped, then matched).
    static func escaped(_ key: String) -> String {
        let first = key.utf8.first!
        return String(format: "\\u%04x", first) + key.dropFirst()
    }

    /// `{}` is wrong for every field: each key is recognized, whether far from the payload's end (the
    /// word path), last in the payload (the general path for short keys), or escaped.
    func testEveryFieldIsRecognizedOnEveryPath() {
        let decoder = EventDecoder()
        for (key, type, extra) in Self.fields {
            let extras = extra.isEmpty ? "" : extra + ","
            for spelling in [key, Self.escaped(key)] {
                var payloads = [
                    event(type, extras + #""\#(spelling)":{},"padding_after_the_key":"0123456789abcdef""#),
                    event(type, extras + #""\#(spelling)":{}"#),
                ]
                if !["v", "type", "session", "ts"].contains(key) {  // first in the object (the last duplicate wins)
                    payloads.append(
                        #"{"\#(spelling)":{},"v":1,"type":"\#(type)","session":"S1","ts":1\#(extra.isEmpty ? "" : "," + extra)}"#
                    )
                }
                for payload in payloads {
                    let r = decoder.rejection(payload)
                    XCTAssertEqual(r?.field, key, payload)
                    XCTAssertEqual(r?.reason, .badField, payload)
                }
            }
        }
    }

    /// Near misses of every known key (one byte more, one less, a NUL byte more, another case) are
    /// unknown fields: ignored.
    func testNearMissesAreUnknownFields() {
        let decoder = EventDecoder()
        let known = Set(Self.fields.map(\.key) + ["preferred", "role", "secure"])
        for (key, _, _) in Self.fields {
            let misses = [key + "x", String(key.dropLast()), key + #"\u0000"#, key.uppercased(), "x" + key]
            for miss in misses where !known.contains(miss) {
                for payload in [
                    event("nav.push", #""\#(miss)":{},"padding_after_the_key":"0123456789abcdef""#),
                    event("nav.push", #""\#(miss)":{}"#),
                ] {
                    XCTAssertNotNil(decoder.event(payload), payload)
                }
            }
        }
    }

    /// The fields of array items, on both paths.
    func testItemFieldsAreRecognized() {
        let decoder = EventDecoder()
        let cases: [(type: String, array: String, item: String, path: String)] = [
            ("alert.presented", "buttons", #""title":{}"#, "buttons[0].title"),
            ("alert.presented", "buttons", #""title":"OK","style":{}"#, "buttons[0].style"),
            ("alert.presented", "buttons", #""title":"OK","preferred":{}"#, "buttons[0].preferred"),
            ("modal.presented", "buttons", #""title":"OK","role":{}"#, "buttons[0].role"),
            ("alert.presented", "text_fields", #""secure":{}"#, "text_fields[0].secure"),
        ]
        for (type, array, item, path) in cases {
            for tail in ["", #","padding_after_the_array":"0123456789abcdef""#] {
                let payload = event(type, #""id":"a","\#(array)":[{\#(item)}]"# + tail)
                let r = decoder.rejection(payload)
                XCTAssertEqual(r?.field, array, payload)
                XCTAssertTrue(r?.detail.contains("'\(path)'") ?? false, "\(r?.detail ?? "nil") for \(payload)")
            }
        }
    }

    /// `ts` (and `seq`, for values past the end of year 9999, which `ts` refuses) written every way a
    /// number can be: read while scanned (plain digits, up to 18) or exactly.
    func testIntegersOnEveryPath() {
        let decoder = EventDecoder()
        let accepted: [(String, Int64)] = [
            ("0", 0), ("-0", 0), ("7", 7), ("1732290000000", 1_732_290_000_000),
            ("999999999999999999", 999_999_999_999_999_999), ("1000000000000000000", 1_000_000_000_000_000_000),
            ("9007199254740991", 9_007_199_254_740_991), ("9223372036854775807", .max), ("1e3", 1000), ("1000.0", 1000),
            ("10E-1", 1), ("0.0", 0),
            ("-0.0e5", 0), ("12.50e1", 125),
        ]
        for (text, value) in accepted {
            if value > 253_402_300_799_999 {
                for payload in [
                    event("session.end", #""seq":\#(text)"#),
                    event("session.end", #""seq":\#(text),"a":"0123456789abcdef""#),
                ] {
                    if value <= 9_007_199_254_740_991 {
                        XCTAssertEqual(decoder.event(payload)?.seq, value, payload)
                    } else {
                        XCTAssertEqual(
                            decoder.rejection(payload)?.field,
                            "seq",
                            "read, then refused past 2^53 - 1: \(payload)"
                        )
                    }
                }
                continue
            }
            for payload in [event("session.end", ts: text), event("session.end", #""a":"0123456789abcdef""#, ts: text)]
            {
                XCTAssertEqual(decoder.event(payload)?.ts, value, payload)
            }
        }
        let rejected = [
            "-1", "9223372036854775808", "1.5", "1e-1", "-9223372036854775809", "1e19",
            "253402300800000", "999999999999999999", "9223372036854775807", "2.534023008e14",
        ]
        for text in rejected {
            let r = decoder.rejection(event("session.end", ts: text))
            XCTAssertEqual(r?.field, "ts", text)
            XCTAssertEqual(r?.reason, .badField, text)
        }
        // Where the error is, from the number's first byte.
        let malformed: [(String, Int)] = [
            ("01", 1), ("-", 1), ("1.", 2), ("-a", 1), ("1e", 2), ("1.e1", 2), ("1e+", 3),
        ]
        for (text, delta) in malformed {
            let payload = event("session.end", ts: text)
            let r = decoder.rejection(payload)
            XCTAssertEqual(r?.reason, .malformedJSON, payload)
            XCTAssertEqual(
                r?.offset,
                payload.utf8.count - 1 - text.utf8.count + delta,
                "\(payload): \(r?.detail ?? "nil")"
            )
        }
        // v and the button index go through the same reading.
        XCTAssertNotNil(decoder.event(#"{"v":1.0,"type":"session.end","session":"S1","ts":1}"#))
        XCTAssertEqual(decoder.rejection(#"{"v":-1,"type":"session.end","session":"S1","ts":1}"#)?.field, "v")
        XCTAssertEqual(decoder.event(event("alert.dismissed", #""id":"a","button":2147483647"#))?.button, .max)
        XCTAssertEqual(decoder.rejection(event("alert.dismissed", #""id":"a","button":2147483648"#))?.field, "button")
    }
}
