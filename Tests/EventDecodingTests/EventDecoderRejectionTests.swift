import EventDecoding
import ModalwatchABI
import XCTest

/// Every rejection reason, the limits, and what a rejection says.
final class EventDecoderRejectionTests: XCTestCase {
    private let decoder = EventDecoder()

    private func assertRejected(
        _ payload: String,
        _ reason: RejectReason,
        field: String? = nil,
        decoder: EventDecoder? = nil,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let r = (decoder ?? self.decoder).rejection(payload, file: file, line: line)
        XCTAssertEqual(r?.reason, reason, "\(payload.prefix(200)): \(r?.detail ?? "")", file: file, line: line)
        XCTAssertEqual(r?.field, field, "\(payload.prefix(200)): \(r?.detail ?? "")", file: file, line: line)
    }

    // MARK: malformed_json

    func testEmptyAndWhitespaceOnlyPayloadsAreOneMalformedRejection() {
        for payload in ["", " ", "\n\n", " \t\r\n "] {
            let items = decoder.outcomes(payload)
            XCTAssertEqual(items.count, 1)
            XCTAssertEqual(items.first?.rejection?.reason, .malformedJSON)
        }
        var items: [DecodedItem] = []
        decoder.decode(UnsafeRawBufferPointer(start: nil, count: 0)) { items.append($0) }
        XCTAssertEqual(items.count, 1)
    }

    func testTopLevelValuesOtherThanObjectsAreMalformed() {
        for payload in ["[]", "[{}]", "\"x\"", "1", "null", "true", "false", "session.end"] {
            assertRejected(payload, .malformedJSON)
        }
    }

    /// Every proper prefix of a valid event is malformed, and is one rejection.
    func testTruncatedEventsAreMalformed() {
        let full = event(
            "alert.presented",
            #""id":"a1","title":"T\u00e9 😀","buttons":[{"title":"OK","preferred":true}],"x":[1.5e3,null,false]"#
        )
        let bytes = Array(full.utf8)
        XCTAssertNotNil(decoder.event(full))
        for n in 1..<bytes.count {
            let items = decoder.outcomes(Array(bytes[0..<n]))
            XCTAssertEqual(items.count, 1, "prefix \(n)")
            XCTAssertEqual(items.first?.rejection?.reason, .malformedJSON, "prefix \(n)")
        }
    }

    func testSyntaxErrors() {
        let g = #"{"v":1,"type":"session.end","session":"S1","ts":1"#
        for bad in [
            g + ",}", g + #","x":[1,]}"#, #"{"v" 1}"#, #"{"v":1 "type":"x"}"#, "{'v':1}", "{v:1}", g + ",\"x\":NaN}",
            g + ",\"x\":Infinity}", g + ",\"x\":-Infinity}", g + ",\"x\":01}", g + ",\"x\":+1}", g + ",\"x\":.5}",
            g + ",\"x\":1.}", g + ",\"x\":1e}", g + ",\"x\":1e+}", g + ",\"x\":-}", g + ",\"x\":0x1}",
            g + ",\"x\":True}",
            g + ",\"x\":nul}", g + #","x":"\x41"}"#, g + #","x":"\u12"}"#, g + #","x":"\u12G4"}"#, g + "/*c*/}",
            g + #","x":[1}]}"#, g + #","x":{"a"}}"#, g + #","x":{1:2}}"#, g + "}}", g + "} x", g + "}" + g + "}",
            "{\"v\":1,\u{0C}\"type\":\"x\"}", "{\"v\":1,\u{A0}\"type\":\"x\"}", "\u{FEFF}" + g + "}",
        ] {
            assertRejected(bad, .malformedJSON)
        }
    }

    func testControlCharactersInStringsAreMalformed() {
        for byte in UInt8(0)..<0x20 {
            var payload = Array(event("nav.push", #""screen":"aXb""#).utf8)
            payload[payload.firstIndex(of: UInt8(ascii: "X"))!] = byte
            let items = decoder.outcomes(payload)
            XCTAssertEqual(items.first?.rejection?.reason, .malformedJSON, "byte \(byte)")
        }
        XCTAssertNotNil(decoder.event(event("nav.push", "\"screen\":\"a\u{7F}b\"")))
    }

    func testInvalidUTF8IsMalformedAnywhere() {
        let sequences: [[UInt8]] = [
            [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
            [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80],
            [0xE2, 0x80], [0xC3], [0xF0, 0x9F, 0x98], [0xC3, 0x28],
        ]
        for sequence in sequences {
            for template in [
                #"{"v":1,"type":"nav.push","session":"S1","ts":1,"screen":"aXb"}"#,
                #"{"v":1,"type":"nav.push","session":"S1","ts":1,"unknownX":1}"#,
                #"{"v":1,"type":"nav.push","session":"S1","ts":1,"x":["X"]}"#,
                #"{"v":1,"type":"nav.push","session":"S1","ts":1}X"#,
            ] {
                var payload = Array(template.utf8)
                let at = payload.firstIndex(of: UInt8(ascii: "X"))!
                payload.replaceSubrange(at...at, with: sequence)
                XCTAssertEqual(
                    decoder.outcomes(payload).first?.rejection?.reason,
                    .malformedJSON,
                    "\(sequence) in \(template)"
                )
            }
        }
        // The valid extremes pass.
        for valid in ["\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"] {
            XCTAssertEqual(decoder.event(event("nav.push", #""screen":"\#(valid)""#))?.screen, valid)
        }
    }

    /// Lone surrogate escapes cannot become UTF-8: the decoder rejects them (Python's json accepts them).
    func testLoneSurrogateEscapesAreMalformed() {
        for s in [#"\ud83d"#, #"\ude00"#, #"\ud83d\u0041"#, #"\ud83dx"#, #"\ude00\ud83d"#, #"\ud83d\ud83d"#] {
            assertRejected(event("nav.push", #""screen":"a\#(s)b""#), .malformedJSON)
        }
        XCTAssertEqual(decoder.event(event("nav.push", #""screen":"\uD83D\uDE00""#))?.screen, "😀")
    }

    func testNestingDepthLimit() {
        // The event object is depth 1: 127 nested arrays in a field reach 128.
        XCTAssertNotNil(
            decoder.event(
                event("session.end", #""x":"# + String(repeating: "[", count: 127) + String(repeating: "]", count: 127))
            )
        )
        assertRejected(
            event("session.end", #""x":"# + String(repeating: "[", count: 128) + String(repeating: "]", count: 128)),
            .malformedJSON
        )
        XCTAssertNotNil(
            decoder.event(
                event(
                    "session.end",
                    #""x":"# + String(repeating: #"{"a":"#, count: 127) + "1" + String(repeating: "}", count: 127)
                )
            )
        )
        assertRejected(
            event(
                "session.end",
                #""x":"# + String(repeating: #"{"a":"#, count: 128) + "1" + String(repeating: "}", count: 128)
            ),
            .malformedJSON
        )
        // Very deep input neither recurses nor crashes.
        assertRejected(event("session.end", #""x":"# + String(repeating: "[", count: 100_000)), .malformedJSON)
        let shallow = EventDecoder(limits: EventLimits(maxDepth: 3))
        XCTAssertNotNil(shallow.event(event("alert.presented", #""id":"a","buttons":[{"title":"x"}]"#)))
        assertRejected(
            event("alert.presented", #""id":"a","buttons":[{"title":"x","y":[]}]"#),
            .malformedJSON,
            decoder: shallow
        )
    }

    func testHugeNumbersInUnknownFieldsAreValid() {
        XCTAssertNotNil(
            decoder.event(
                event("session.end", #""x":1e999999999999999999,"y":-123456789012345678901234567890.5e-99999"#)
            )
        )
    }

    // MARK: missing_field and bad_field

    func testRequiredFields() {
        assertRejected(#"{"type":"session.end","session":"S1","ts":1}"#, .missingField, field: "v")
        assertRejected(#"{"v":1,"session":"S1","ts":1}"#, .missingField, field: "type")
        assertRejected(#"{"v":1,"type":"session.end","ts":1}"#, .missingField, field: "session")
        assertRejected(#"{"v":1,"type":"session.end","session":"S1"}"#, .missingField, field: "ts")
        assertRejected(#"{}"#, .missingField, field: "v")
        assertRejected(event("session.start"), .missingField, field: "app")
        assertRejected(event("task.progress", #""state":"started""#), .missingField, field: "task")
        assertRejected(event("task.progress", #""task":"t""#), .missingField, field: "state")
        for type in [
            "alert.presented", "alert.dismissed", "sheet.presented", "sheet.dismissed", "modal.presented",
            "modal.dismissed", "popover.presented", "popover.dismissed",
        ] {
            assertRejected(event(type), .missingField, field: "id")
        }
        assertRejected(
            event("alert.presented", #""id":"a","buttons":[{"style":"cancel"}]"#),
            .missingField,
            field: "buttons"
        )
        assertRejected(
            event("modal.presented", #""id":"a","buttons":[{"title":"x"},{"role":"done"}]"#),
            .missingField,
            field: "buttons"
        )
    }

    func testBadCommonFields() {
        for v in ["2", "0", "-1", "1.5", "\"1\"", "true", "null", "[1]", "{}", "1e1", "0.1"] {
            assertRejected(#"{"v":\#(v),"type":"session.end","session":"S1","ts":1}"#, .badField, field: "v")
        }
        for type in ["5", "\"\"", "null", "[]", "true"] {
            assertRejected(#"{"v":1,"type":\#(type),"session":"S1","ts":1}"#, .badField, field: "type")
        }
        for session in ["\"\"", "5", "null", "{}"] {
            assertRejected(#"{"v":1,"type":"session.end","session":\#(session),"ts":1}"#, .badField, field: "session")
        }
        for ts in ["-1", "1.5", "\"1\"", "true", "null", "[]"] {
            assertRejected(event("session.end", ts: ts), .badField, field: "ts")
        }
        for seq in ["0", "-1", "1.5", "\"1\"", "null", "false", "9223372036854775808"] {
            assertRejected(event("session.end", #""seq":\#(seq)"#), .badField, field: "seq")
        }
        assertRejected(event("session.start", #""app":"""#), .badField, field: "app")
        assertRejected(event("session.end", #""app":5"#), .badField, field: "app")
        assertRejected(event("nav.pop", #""app":null"#), .badField, field: "app")
    }

    func testBadTypeFields() {
        let cases: [(String, String, String)] = [
            ("session.start", #""app":"a","app_version":3"#, "app_version"),
            ("session.start", #""app":"a","os":null"#, "os"),
            ("session.start", #""app":"a","device":"android""#, "device"),
            ("session.start", #""app":"a","device":0"#, "device"),
            ("session.start", #""app":"a","size_class":"large""#, "size_class"),
            ("user.action", #""control":"link""#, "control"), ("user.action", #""label":5"#, "label"),
            ("user.action", #""destructive":"yes""#, "destructive"),
            ("user.action", #""destructive":1"#, "destructive"),
            ("task.progress", #""task":"","state":"started""#, "task"),
            ("task.progress", #""task":"t","state":"done""#, "state"),
            ("alert.presented", #""id":"""#, "id"), ("alert.presented", #""id":5"#, "id"),
            ("alert.presented", #""id":"a","title":5"#, "title"),
            ("alert.presented", #""id":"a","message":[]"#, "message"),
            ("alert.presented", #""id":"a","buttons":"OK""#, "buttons"),
            ("alert.presented", #""id":"a","buttons":["OK"]"#, "buttons"),
            ("alert.presented", #""id":"a","buttons":[{"title":null}]"#, "buttons"),
            ("alert.presented", #""id":"a","buttons":[{"title":"x","style":"primary"}]"#, "buttons"),
            ("alert.presented", #""id":"a","buttons":[{"title":"x","preferred":"yes"}]"#, "buttons"),
            ("alert.presented", #""id":"a","text_fields":{}"#, "text_fields"),
            ("alert.presented", #""id":"a","text_fields":[1]"#, "text_fields"),
            ("alert.presented", #""id":"a","text_fields":[{"secure":"yes"}]"#, "text_fields"),
            ("alert.dismissed", #""id":"a","button":-1"#, "button"),
            ("alert.dismissed", #""id":"a","button":"0""#, "button"),
            ("sheet.dismissed", #""id":"a","button":1.5"#, "button"),
            ("sheet.dismissed", #""id":"a","button":2147483648"#, "button"),
            ("alert.dismissed", #""id":"a","via":"swipe""#, "via"),
            ("sheet.presented", #""id":"a","in_popover":"true""#, "in_popover"),
            ("sheet.presented", #""id":"a","from_popover":1"#, "from_popover"),
            ("sheet.presented", #""id":"a","background":5"#, "background"),
            ("sheet.presented", #""id":"a","background":null"#, "background"),
            ("modal.presented", #""id":"a","style":"sheet""#, "style"),
            ("modal.presented", #""id":"a","transition":"fade""#, "transition"),
            ("modal.presented", #""id":"a","size_class":"huge""#, "size_class"),
            ("modal.presented", #""id":"a","title":{}"#, "title"),
            ("modal.presented", #""id":"a","buttons":[{"title":"x","role":"ok"}]"#, "buttons"),
            ("modal.dismissed", #""id":"a","via":null"#, "via"),
            ("modal.dismissed", #""id":"a","unsaved_changes":null"#, "unsaved_changes"),
            ("modal.dismissed", #""id":"a","confirmed":"no""#, "confirmed"), ("popover.dismissed", #""id":null"#, "id"),
            ("nav.push", #""screen":5"#, "screen"),
        ]
        for (type, extra, field) in cases {
            assertRejected(event(type, extra), .badField, field: field)
        }
    }

    // MARK: too_large

    func testStringLimits() {
        let s = { (n: Int) in String(repeating: "s", count: n) }
        XCTAssertNotNil(decoder.event(event("session.end", session: s(128))))
        assertRejected(event("session.end", session: s(129)), .tooLarge, field: "session")
        XCTAssertNotNil(decoder.event(event("session.start", #""app":"\#(s(256))""#)))
        assertRejected(event("session.start", #""app":"\#(s(257))""#), .tooLarge, field: "app")
        XCTAssertNotNil(decoder.event(event("popover.presented", #""id":"\#(s(128))""#)))
        assertRejected(event("popover.presented", #""id":"\#(s(129))""#), .tooLarge, field: "id")
        assertRejected(event("task.progress", #""task":"\#(s(129))","state":"started""#), .tooLarge, field: "task")
        XCTAssertNotNil(decoder.event(event("sheet.presented", #""id":"a","background":"\#(s(128))""#)))
        assertRejected(event("sheet.presented", #""id":"a","background":"\#(s(129))""#), .tooLarge, field: "background")
        for (type, field) in [
            ("alert.presented", "title"), ("alert.presented", "message"), ("sheet.presented", "title"),
            ("modal.presented", "title"), ("user.action", "label"), ("nav.push", "screen"),
            ("session.start", "app_version"), ("session.start", "os"),
        ] {
            XCTAssertNotNil(decoder.event(event(type, #""id":"a","app":"a","\#(field)":"\#(s(4096))""#)), field)
            assertRejected(event(type, #""id":"a","app":"a","\#(field)":"\#(s(4097))""#), .tooLarge, field: field)
        }
        assertRejected(
            event("alert.presented", #""id":"a","buttons":[{"title":"\#(s(4097))"}]"#),
            .tooLarge,
            field: "buttons"
        )
        assertRejected(event(s(4097)), .tooLarge, field: "type")
    }

    /// Limits count UTF-8 bytes after unescaping (the schema counts code points).
    func testStringLimitsCountUnescapedUTF8Bytes() {
        XCTAssertNotNil(decoder.event(event("session.end", session: String(repeating: #"\u0041"#, count: 128))))
        XCTAssertNotNil(decoder.event(event("session.end", session: String(repeating: "é", count: 64))))
        assertRejected(event("session.end", session: String(repeating: "é", count: 65)), .tooLarge, field: "session")
        assertRejected(event("session.end", session: String(repeating: "😀", count: 33)), .tooLarge, field: "session")
    }

    func testArrayLimits() {
        let buttons = { (n: Int) in "[" + (0..<n).map { #"{"title":"B\#($0)"}"# }.joined(separator: ",") + "]" }
        for type in ["alert.presented", "sheet.presented", "modal.presented"] {
            let e = decoder.event(event(type, #""id":"a","buttons":\#(buttons(64))"#))
            XCTAssertEqual(
                (e?.buttons
                    ?? e?.modalButtons.map { $0.map { EventSnapshot.Button(title: $0.title, style: 0, preferred: 0) } })?
                    .count,
                64
            )
            assertRejected(event(type, #""id":"a","buttons":\#(buttons(65))"#), .tooLarge, field: "buttons")
        }
        let fields = { (n: Int) in "[" + Array(repeating: #"{"secure":true}"#, count: n).joined(separator: ",") + "]" }
        XCTAssertEqual(
            decoder.event(event("alert.presented", #""id":"a","text_fields":\#(fields(64))"#))?.secureTextFieldCount,
            64
        )
        assertRejected(
            event("alert.presented", #""id":"a","text_fields":\#(fields(65))"#),
            .tooLarge,
            field: "text_fields"
        )
    }

    func testEventSizeLimit() {
        let limits = EventLimits(maxEventBytes: 100)
        let small = EventDecoder(limits: limits)
        let base = event("session.end", #""x":"""#)
        let exactly = event("session.end", #""x":"\#(String(repeating: "p", count: 100 - base.utf8.count))""#)
        XCTAssertEqual(exactly.utf8.count, 100)
        XCTAssertNotNil(small.event(exactly))
        assertRejected(
            event("session.end", #""x":"\#(String(repeating: "p", count: 101 - base.utf8.count))""#),
            .tooLarge,
            decoder: small
        )
        // The default: 64 KiB.
        assertRejected(event("session.end", #""x":"\#(String(repeating: "p", count: 65536))""#), .tooLarge)
        // Whitespace around the object does not count.
        XCTAssertNotNil(small.event("   \n" + exactly + "   \r\n  "))
    }

    func testPayloadSizeLimit() {
        let small = EventDecoder(limits: EventLimits(maxPayloadBytes: 200))
        let line = event("session.end") + "\n"
        let payload = String(repeating: line, count: 200 / line.utf8.count + 1)
        let items = small.outcomes(payload)
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items.first?.rejection?.reason, .tooLarge)
        XCTAssertEqual(
            small.outcomes(String(repeating: line, count: 200 / line.utf8.count)).filter { $0.event != nil }.count,
            200 / line.utf8.count
        )
        // The default: 256 KiB.
        let big = String(repeating: line, count: 262144 / line.utf8.count + 1)
        XCTAssertEqual(decoder.outcomes(big).map { $0.rejection?.reason }, [.tooLarge])
    }

    func testConfiguredLimits() {
        let limits = EventLimits(
            maxStringBytes: 20,
            maxButtons: 2,
            maxTextFields: 1,
            maxSessionBytes: 3,
            maxAppBytes: 2,
            maxIdBytes: 2,
            maxTaskBytes: 2,
            maxBackgroundBytes: 1
        )
        let d = EventDecoder(limits: limits)
        assertRejected(event("session.end", session: "S123"), .tooLarge, field: "session", decoder: d)
        assertRejected(event("session.end", #""app":"abc""#, session: "S1"), .tooLarge, field: "app", decoder: d)
        assertRejected(event("popover.presented", #""id":"abc""#), .tooLarge, field: "id", decoder: d)
        assertRejected(event("task.progress", #""task":"abc","state":"started""#), .tooLarge, field: "task", decoder: d)
        assertRejected(
            event("sheet.presented", #""id":"a","background":"ab""#),
            .tooLarge,
            field: "background",
            decoder: d
        )
        assertRejected(event("nav.push", #""screen":"abcdefghijklmnopqrstu""#), .tooLarge, field: "screen", decoder: d)
        assertRejected(
            event("alert.presented", #""id":"a","buttons":[{"title":"a"},{"title":"b"},{"title":"c"}]"#),
            .tooLarge,
            field: "buttons",
            decoder: d
        )
        assertRejected(
            event("alert.presented", #""id":"a","text_fields":[{},{}]"#),
            .tooLarge,
            field: "text_fields",
            decoder: d
        )
        XCTAssertEqual(
            d.event(event("alert.presented", #""id":"a","buttons":[{"title":"a"},{"title":"b"}],"text_fields":[{}]"#))?
                .buttons?.count,
            2
        )
    }

    // MARK: what a rejection says

    func testRejectionDetailAndFieldAndOffset() throws {
        let r = try XCTUnwrap(decoder.rejection(event("session.end", ts: "-5")))
        XCTAssertEqual(
            r.detail,
            "field 'ts' must be an integer from 0 to 253402300799999 (ms since 1970, at most the end of year 9999)"
        )
        XCTAssertEqual(r.index, 0)
        let payload = event("alert.presented", #""id":"a","buttons":[{"title":"OK"},{"title":"X","style":"primary"}]"#)
        let b = try XCTUnwrap(decoder.rejection(payload))
        XCTAssertEqual(b.field, "buttons")
        XCTAssertEqual(b.detail, "field 'buttons[1].style' must be one of default, cancel, destructive")
        XCTAssertEqual(b.offset, Array(payload.utf8).firstRange(of: Array("primary".utf8))?.lowerBound, "at the value")
        XCTAssertEqual(decoder.rejection(event("alert.presented"))?.detail, "field 'id' is required")
        XCTAssertEqual(decoder.rejection(event("nav.push", #""screen":"a"#))?.detail.hasPrefix("invalid JSON: "), true)
        XCTAssertEqual(
            decoder.rejection(event("session.end", session: String(repeating: "s", count: 129)))?.detail,
            "field 'session' is longer than 128 bytes"
        )
        let m = try XCTUnwrap(decoder.rejection(#"{"v":1,"type":"x","session":"S1","ts":1,"x":"a\qb"}"#))
        XCTAssertEqual(m.offset, 46)
        XCTAssertNil(m.field)
        XCTAssertEqual(m.detail, "invalid JSON: invalid escape in string at byte 46")
    }

    func testRejectionCarriesSessionAndAppWhenRead() throws {
        let bad = try XCTUnwrap(
            decoder.rejection(
                event("session.start", #""app":"com.example.mail","device":"android""#, session: "S\u{2603}")
            )
        )
        XCTAssertEqual(bad.session, "S\u{2603}")
        XCTAssertEqual(bad.app, "com.example.mail")
        // Read before the syntax error: known; after it: not.
        let broken = try XCTUnwrap(
            decoder.rejection(#"{"v":1,"type":"x","session":"S\u0031","ts":1,"x":tru,"app":"a"}"#)
        )
        XCTAssertEqual(broken.session, "S1")
        XCTAssertNil(broken.app)
        // Invalid values are not reported as the session.
        XCTAssertNil(decoder.rejection(event("session.end", session: ""))?.session)
        XCTAssertNil(decoder.rejection(event("session.end", session: String(repeating: "s", count: 129)))?.session)
        // Nothing leaks from one event into the next.
        let items = decoder.outcomes(#"{"v":1,"type":"x","session":"S1","app":"A","ts":-1}"# + "\n" + #"{"v":2}"#)
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items[0].rejection?.app, "A")
        XCTAssertNil(items[1].rejection?.app)
        XCTAssertNil(items[1].rejection?.session)
    }

    func testRejectReasonRawValuesAreTheDiagnosticReasons() {
        XCTAssertEqual(
            RejectReason.allCases.map(\.rawValue),
            ["malformed_json", "missing_field", "bad_field", "too_large"]
        )
    }
}
