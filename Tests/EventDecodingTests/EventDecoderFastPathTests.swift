import EventDecoding
import ModalwatchABI
import XCTest

/// The decoder's word-at-a-time paths against what the byte-by-byte rules say: enumeration values
/// matched by words (every value and its near misses), integers read 8 digits at a time (every
/// length, and what may follow), and strings and keys scanned 8 bytes at a time up to the payload's
/// end (every length and position of the last field, escapes across word boundaries).
final class EventDecoderFastPathTests: XCTestCase {
    private let decoder = EventDecoder()

    /// Each enumeration's values in its C enum's order, and how to put a value in an event and read
    /// back what it decoded to.
    private struct Enumeration {
        var field: String
        var values: [String]
        var payload: (String) -> String
        var decoded: (EventSnapshot) -> Int32
    }

    private var enumerations: [Enumeration] {
        [
            Enumeration(
                field: "type",
                values: [
                    "session.start", "session.end", "app.background", "app.foreground", "user.action", "task.progress",
                    "alert.presented", "alert.dismissed", "sheet.presented", "sheet.dismissed", "modal.presented",
                    "modal.dismissed", "popover.presented", "popover.dismissed", "nav.push", "nav.pop",
                ],
                payload: { event($0, #""app":"a","id":"x","task":"t","state":"started""#) },
                decoded: { Int32($0.type) - 1 }
            ),
            Enumeration(
                field: "device",
                values: ["phone", "pad", "mac", "tv", "vision"],
                payload: { event("session.start", #""app":"a","device":"\#($0)""#) },
                decoded: { $0.device }
            ),
            Enumeration(
                field: "size_class",
                values: ["compact", "regular"],
                payload: { event("session.start", #""app":"a","size_class":"\#($0)""#) },
                decoded: { $0.sizeClass }
            ),
            Enumeration(
                field: "control",
                values: ["button", "bar_button", "toolbar_button", "cell", "gesture", "key", "other"],
                payload: { event("user.action", #""control":"\#($0)""#) },
                decoded: { $0.control }
            ),
            Enumeration(
                field: "state",
                values: ["started", "progress", "finished", "failed", "cancelled"],
                payload: { event("task.progress", #""task":"t","state":"\#($0)""#) },
                decoded: { $0.taskState }
            ),
            Enumeration(
                field: "buttons[0].style",
                values: ["default", "cancel", "destructive"],
                payload: { event("alert.presented", #""id":"a","buttons":[{"title":"OK","style":"\#($0)"}]"#) },
                decoded: { $0.buttons?.first?.style ?? -2 }
            ),
            Enumeration(
                field: "buttons[0].role",
                values: ["done", "cancel", "confirm", "other"],
                payload: { event("modal.presented", #""id":"m","buttons":[{"title":"OK","role":"\#($0)"}]"#) },
                decoded: { $0.modalButtons?.first?.role ?? -2 }
            ),
            Enumeration(
                field: "via",
                values: ["button", "background", "programmatic", "gesture"],
                payload: { event("alert.dismissed", #""id":"a","via":"\#($0)""#) },
                decoded: { $0.via }
            ),
            Enumeration(
                field: "style",
                values: [
                    "automatic", "full_screen", "page_sheet", "form_sheet", "current_context", "over_full_screen",
                    "over_current_context", "custom",
                ],
                payload: { event("modal.presented", #""id":"m","style":"\#($0)""#) },
                decoded: { $0.style }
            ),
            Enumeration(
                field: "transition",
                values: ["cover_vertical", "flip_horizontal", "cross_dissolve", "partial_curl", "custom"],
                payload: { event("modal.presented", #""id":"m","transition":"\#($0)""#) },
                decoded: { $0.transition }
            ),
        ]
    }

    func testEveryEnumerationValueDecodesToItsIndex() throws {
        for enumeration in enumerations {
            for (index, value) in enumeration.values.enumerated() {
                let e = try XCTUnwrap(decoder.event(enumeration.payload(value)), value)
                XCTAssertEqual(enumeration.decoded(e), Int32(index), "\(enumeration.field) \(value)")
                // The same value written with an escape (unescaped into the arena, then matched).
                let escaped = #"\u00"# + String(value.utf8.first!, radix: 16) + value.dropFirst()
                let f = try XCTUnwrap(decoder.event(enumeration.payload(escaped)), escaped)
                XCTAssertEqual(enumeration.decoded(f), Int32(index), "\(enumeration.field) \(escaped)")
            }
        }
    }

    func testNearMissesOfEnumerationValuesAreRejected() throws {
        for enumeration in enumerations {
            let known = Set(enumeration.values)
            for value in enumeration.values {
                var misses = [String(value.dropLast()), value + "x", value + " ", "x" + value, value.uppercased(), ""]
                let bytes = Array(value.utf8)
                for i in bytes.indices {
                    var changed = bytes
                    changed[i] ^= 0x01
                    misses.append(String(decoding: changed, as: UTF8.self))
                }
                misses.append(
                    String(decoding: bytes + [0], as: UTF8.self).replacingOccurrences(of: "\0", with: #"\u0000"#)
                )
                for miss in misses where !known.contains(miss) && !miss.contains("\"") && !miss.contains("\\\\") {
                    if enumeration.field == "type" {
                        if miss.isEmpty { continue }  // an empty type is "must not be empty", checked elsewhere
                        // An unknown type is accepted as MW_EVENT_UNKNOWN.
                        let e = try XCTUnwrap(decoder.event(enumeration.payload(miss)), miss)
                        XCTAssertEqual(e.type, MW_EVENT_UNKNOWN.rawValue, miss)
                        continue
                    }
                    let r = try XCTUnwrap(decoder.rejection(enumeration.payload(miss)), miss)
                    XCTAssertEqual(r.reason, .badField, miss)
                    XCTAssertEqual(r.field, String(enumeration.field.prefix { $0 != "[" }), miss)
                    XCTAssertTrue(r.detail.hasPrefix("field '\(enumeration.field)' must be one of"), r.detail)
                }
            }
        }
    }

    func testIntegersOfEveryLengthAndWhatFollowsThem() throws {
        for length in 1...19 {
            var digits = ""
            for i in 0..<length { digits += String((i * 7 + 1) % 10) }
            let value = try XCTUnwrap(Int64(digits))
            // As the last member (only `}` after it, near the payload's end) and in the middle; a
            // `ts` past the end of year 9999 (16 digits and more here) is read, then refused.
            func assertTs(_ payload: String, _ what: String) throws {
                if value <= 253_402_300_799_999 {
                    XCTAssertEqual(try XCTUnwrap(decoder.event(payload), what).ts, value, what)
                } else {
                    let r = try XCTUnwrap(decoder.rejection(payload), what)
                    XCTAssertEqual(r.reason, .badField, what)
                    XCTAssertEqual(r.field, "ts", what)
                }
            }
            try assertTs(#"{"v":1,"type":"session.end","session":"S","ts":\#(digits)}"#, digits)
            try assertTs(event("session.end", #""seq":1,"app":"abcdefghijklmnopqrstuvwxyz""#, ts: digits), digits)
            // A `seq` past 2^53 - 1 (16 digits and more here) is read, then refused.
            func assertSeq(_ payload: String, _ what: String) throws {
                if value <= 9_007_199_254_740_991 {
                    XCTAssertEqual(try XCTUnwrap(decoder.event(payload), what).seq, value, what)
                } else {
                    let r = try XCTUnwrap(decoder.rejection(payload), what)
                    XCTAssertEqual(r.reason, .badField, what)
                    XCTAssertEqual(r.field, "seq", what)
                }
            }
            try assertSeq(#"{"v":1,"type":"session.end","session":"S","ts":1,"seq":\#(digits)}"#, digits)
            try assertSeq(event("session.end", #""seq":\#(digits),"app":"abcdefghijklmnopqrstuvwxyz""#), digits)
            try assertSeq(event("session.end", #""seq":\#(digits) ,"app":"abcdefghijklmnopqrstuvwxyz""#), digits)
            // A fraction or an exponent makes it a number read exactly: 1.0 and 1e0 are integers.
            try assertTs(event("session.end", #""app":"abcdefghijklmnopqrstuvwxyz""#, ts: digits + ".0"), digits + ".0")
            try assertTs(event("session.end", #""app":"abcdefghijklmnopqrstuvwxyz""#, ts: digits + "e0"), digits + "e0")
            try assertSeq(event("session.end", #""seq":\#(digits).0"#), digits + ".0")
            try assertSeq(event("session.end", #""seq":\#(digits)e0"#), digits + "e0")
            let r = try XCTUnwrap(
                decoder.rejection(event("session.end", #""app":"abcdefghijklmnopqrstuvwxyz""#, ts: digits + ".5"))
            )
            XCTAssertEqual(r.reason, .badField)
            XCTAssertEqual(r.field, "ts")
            // Negative: ts must be >= 0; seq must be >= 1.
            let negative = try XCTUnwrap(
                decoder.rejection(event("session.end", #""app":"abcdefghijklmnopqrstuvwxyz""#, ts: "-" + digits))
            )
            XCTAssertEqual(negative.field, "ts")
            // A letter or a second number glued to the digits is malformed JSON.
            for glued in ["x", "-", "\"", "true"] {
                let m = try XCTUnwrap(
                    decoder.rejection(event("session.end", #""app":"abcdefghijklmnopqrstuvwxyz""#, ts: digits + glued))
                )
                XCTAssertEqual(m.reason, .malformedJSON, digits + glued)
            }
        }
        let over = try XCTUnwrap(
            decoder.rejection(event("session.end", #""app":"abcdefghijklmnopqrstuvwxyz""#, ts: "9223372036854775808"))
        )
        XCTAssertEqual(over.reason, .badField)
        XCTAssertEqual(
            try XCTUnwrap(decoder.event(event("session.end", #""seq":9007199254740991"#))).seq,
            9_007_199_254_740_991
        )
        for past in [
            "9007199254740992", "9223372036854775807", "9223372036854775808", "0", "-1", "-9223372036854775808",
        ] {
            let r = try XCTUnwrap(decoder.rejection(event("session.end", #""seq":\#(past)"#)), past)
            XCTAssertEqual(r.reason, .badField, past)
            XCTAssertEqual(r.field, "seq", past)
        }
        XCTAssertEqual(
            try XCTUnwrap(decoder.event(event("session.end", ts: "253402300799999"))).ts,
            253_402_300_799_999
        )
        XCTAssertEqual(try XCTUnwrap(decoder.event(event("session.end", ts: "0"))).ts, 0)
        let leadingZero = try XCTUnwrap(
            decoder.rejection(event("session.end", #""app":"abcdefghijklmnopqrstuvwxyz""#, ts: "0123"))
        )
        XCTAssertEqual(leadingZero.reason, .malformedJSON)
    }

    func testStringsAndKeysOfEveryLengthUpToThePayloadsEnd() throws {
        for length in 0...40 {
            let text = String((0..<length).map { Character(UnicodeScalar(UInt8(0x41 + $0 % 26))) })
            // The label is the last member: its bytes and its key run into the payload's end.
            let payload = event("user.action", #""label":"\#(text)""#)
            let e = try XCTUnwrap(decoder.event(payload), payload)
            XCTAssertEqual(e.label, text)
            // Escapes at every position of the string, across word boundaries and at its end.
            for at in stride(from: 0, through: length, by: 1) {
                let chars = Array(text)
                let escapedText = String(chars[..<at]) + #"\"\\\u00e9\n"# + String(chars[at...])
                let f = try XCTUnwrap(decoder.event(event("user.action", #""label":"\#(escapedText)""#)), escapedText)
                XCTAssertEqual(f.label, String(chars[..<at]) + "\"\\\u{e9}\n" + String(chars[at...]))
                // A raw control character there is malformed JSON, at its offset.
                let bad = event(
                    "user.action",
                    #""label":"\#(String(chars[..<at]))"# + "\u{01}" + #"\#(String(chars[at...]))""#
                )
                let r = try XCTUnwrap(decoder.rejection(bad), bad)
                XCTAssertEqual(r.reason, .malformedJSON)
                XCTAssertTrue(r.detail.contains("control character in string"), r.detail)
            }
            // Unterminated at the payload's end: every truncation of the event is malformed JSON.
            let bytes = Array(payload.utf8)
            for cut in (bytes.count - length - 12)..<bytes.count {
                let items = decoder.outcomes(Array(bytes[..<cut]))
                XCTAssertEqual(items.count, 1)
                XCTAssertEqual(
                    items.first?.rejection?.reason,
                    .malformedJSON,
                    String(decoding: bytes[..<cut], as: UTF8.self)
                )
            }
        }
        // Keys of every known length as the last member, and an unknown key there.
        for member in [
            #""seq":3"#, #""app":"a""#, #""label":"b""#, #""control":"key""#, #""destructive":true"#,
            #""unknown_key":1"#,
        ] {
            XCTAssertNotNil(decoder.event(event("user.action", member)), member)
        }
    }

    /// Compact members (no whitespace) are read by the decoder's fast lane, spaced ones by its general
    /// path: the same events, with every kind of value the lane takes (strings, one-digit and longer
    /// integers, true, false, null) and those it leaves (arrays, escapes, numbers with a fraction),
    /// must decode alike, and a literal glued to what follows must be rejected alike.
    func testCompactAndSpacedMembersDecodeAlike() throws {
        let events: [(String, [String])] = [
            (
                "session.start",
                [#""app":"com.example.photos""#, #""app_version":"4.2.1""#, #""os":"iOS 18.1""#, #""device":"pad""#]
            ),
            (
                "user.action",
                [#""seq":12"#, #""app":"a""#, #""control":"button""#, #""label":"Sh\u0061re""#, #""destructive":true"#]
            ),
            ("user.action", [#""seq":7"#, #""label":null"#, #""destructive":false"#, #""unknown":[1,{"k":null}]"#]),
            (
                "alert.presented",
                [
                    #""id":"a1""#, #""title":"Delete?""#, #""message":null"#,
                    #""buttons":[{"title":"Cancel","style":"cancel","preferred":false},{"title":"Delete","style":"destructive","preferred":true}]"#,
                    #""text_fields":[{"secure":true},{"secure":false},{}]"#,
                ]
            ),
            (
                "modal.dismissed",
                [
                    #""id":"m3""#, #""via":"gesture""#, #""button":null"#, #""unsaved_changes":false"#,
                    #""confirmed":true"#,
                ]
            ),
            ("alert.dismissed", [#""id":"a3""#, #""via":"button""#, #""button":1.0"#]),
        ]
        for (type, members) in events {
            let compact = event(type, members.joined(separator: ","))
            let spaced = event(
                type,
                members.map { $0.replacingOccurrences(of: "\":", with: "\" : ") }.joined(separator: " , ")
            )
            let fast = try XCTUnwrap(decoder.event(compact), compact)
            let general = try XCTUnwrap(decoder.event(spaced), spaced)
            XCTAssertEqual(fast, general, compact)
        }
        for glued in ["truex", "nullx", "falsex", "tru", "nul", "fals", "falsy", "trUe"] {
            let compact = event("user.action", #""destructive":\#(glued),"label":"a""#)
            let spaced = event("user.action", #""destructive" : \#(glued) , "label":"a""#)
            let fast = try XCTUnwrap(decoder.rejection(compact), compact)
            let general = try XCTUnwrap(decoder.rejection(spaced), spaced)
            XCTAssertEqual(fast.reason, .malformedJSON, compact)
            XCTAssertEqual(fast.reason, general.reason, compact)
            // The same sentence; the byte offsets differ by the spaces.
            XCTAssertEqual(
                fast.detail.components(separatedBy: " at byte ").first,
                general.detail.components(separatedBy: " at byte ").first,
                compact
            )
            XCTAssertEqual(
                fast.detail,
                fast.detail.components(separatedBy: " at byte ").first! + " at byte \(fast.offset)",
                compact
            )
            // An invalid literal is reported at its start; a valid one glued to more, after it.
            let valueAt = compact.utf8.count - #"\#(glued),"label":"a"}"#.utf8.count
            let literalLength = ["true", "null", "false"].first { glued.hasPrefix($0) }?.utf8.count
            XCTAssertEqual(fast.offset, valueAt + (literalLength ?? 0), compact)
        }
    }

    /// The fast lane reads members from a quote bitmap that covers at most 2,048 bytes from where a
    /// classification starts, and ends at the first byte that needs attention: strings and keys
    /// across that limit, members after an escape or a non-ASCII string (classified again there),
    /// and lines that end less than 16 bytes after a quote must decode as the general path reads
    /// the same event spaced out.
    func testMembersAcrossTheQuoteBitmapsEndsDecodeLikeTheGeneralPath() throws {
        let spacedOut = { (members: [String]) -> [String] in
            members.map { $0.replacingOccurrences(of: "\":", with: "\" : ") }
        }
        for length in stride(from: 1_990, through: 2_100, by: 3) {
            let long = String(repeating: "w", count: length)
            let memberSets: [[String]] = [
                [
                    #""title":"\#(long)""#, #""message":"after the limit""#,
                    #""buttons":[{"title":"OK","style":"default"}]"#,
                ],
                [#""message":"\#(long)""#, #""title":"caf\u00e9""#, #""buttons":[{"title":"Ça","style":"cancel"}]"#],
                [#""title":"é\#(long)""#, #""message":"plain again""#],
            ]
            for members in memberSets {
                let compact = event("alert.presented", ([#""id":"a1""#] + members).joined(separator: ","))
                let spaced = event("alert.presented", spacedOut([#""id":"a1""#] + members).joined(separator: " , "))
                let fast = try XCTUnwrap(decoder.event(compact), "\(length)")
                let general = try XCTUnwrap(decoder.event(spaced), "\(length)")
                XCTAssertEqual(fast, general, "\(length)")
            }
        }
        // A key's closing quote, its colon and the value at every distance from the payload's end.
        for pad in 0...20 {
            let text = String(repeating: "p", count: pad)
            for last in [#""seq":12"#, #""label":"\#(text)""#, #""destructive":false"#, #""control":"key""#] {
                let compact = event("user.action", #""app":"a\#(text)","# + last)
                let spaced = event("user.action", spacedOut([#""app":"a\#(text)""#, last]).joined(separator: " , "))
                XCTAssertEqual(
                    try XCTUnwrap(decoder.event(compact), compact),
                    try XCTUnwrap(decoder.event(spaced), spaced),
                    compact
                )
            }
        }
    }

    /// Each key is first tried as the one that followed the previous key in an earlier event: events
    /// whose keys come in other orders, keys that start like the guess (`button` after `buttons`,
    /// `id` and `idx`), and a guess right before the payload's end must decode as the general path
    /// reads them, whatever the decoder saw before.
    func testKeyGuessesFromEarlierEventsNeverChangeWhatIsRead() throws {
        let events: [(String, [String])] = [
            ("alert.dismissed", [#""id":"a1""#, #""via":"button""#, #""button":1"#]),
            ("alert.dismissed", [#""id":"a1""#, #""button":0"#, #""via":"gesture""#]),
            (
                "alert.dismissed",
                [#""idx":"z""#, #""id":"a2""#, #""buttons":[]"#, #""button":null"#, #""via":"button""#]
            ),
            (
                "alert.presented",
                [
                    #""id":"a3""#,
                    #""buttons":[{"style":"cancel","title":"No"},{"title":"Yes","preferred":true,"style":"default"}]"#,
                ]
            ),
            (
                "alert.presented",
                [#""id":"a3""#, #""buttons":[{"title":"No","style":"cancel"},{"preferred":false,"title":"Yes"}]"#]
            ),
            ("user.action", [#""label":"Edit""#, #""control":"button""#]),
            ("user.action", [#""control":"button""#, #""label":"Edit""#]),
            ("user.action", [#""control":"button""#, #""labels":"x""#, #""label":"E""#]),
        ]
        for _ in 0..<3 {
            for (type, members) in events {
                let compact = event(type, members.joined(separator: ","))
                let spaced = event(
                    type,
                    members.map { $0.replacingOccurrences(of: "\":", with: "\" : ") }.joined(separator: " , ")
                )
                let fast = try XCTUnwrap(decoder.event(compact), compact)
                let general = try XCTUnwrap(decoder.event(spaced), spaced)
                XCTAssertEqual(fast, general, compact)
            }
        }
        // The same key order in a batch, and a different one after it: the last of duplicate keys wins.
        let batch = [
            event("user.action", #""control":"cell","label":"A""#),
            event("user.action", #""control":"cell","label":"B""#),
            event("user.action", #""label":"C","control":"key","label":"D""#),
        ].joined(separator: "\n")
        let labels = decoder.outcomes(batch).map { $0.event?.label }
        XCTAssertEqual(labels, ["A", "B", "D"])
    }
}

/// `stringsArePlainASCII`: true for an event whose strings the fast paths read, all plain printable
/// ASCII; false for one with a string that is not, whichever path read it; event by event in a batch.
final class EventDecoderPlainStringsTests: XCTestCase {
    private let decoder = EventDecoder()

    private func plain(_ payload: String) -> [Bool] {
        var found: [Bool] = []
        Array(payload.utf8).withUnsafeBytes { bytes in
            decoder.decode(bytes) { item in
                if case .event = item { found.append(decoder.stringsArePlainASCII) }
            }
        }
        return found
    }

    func testOnlyEventsWithPlainASCIIStringsAreSaidToHaveThem() {
        let buttons = #""buttons":[{"title":"OK","style":"default"},{"title":"Cancel","style":"cancel"}]"#
        XCTAssertEqual(plain(event("alert.presented", #""id":"a","title":"Offline",\#(buttons)"#)), [true])
        XCTAssertEqual(plain(event("alert.presented", #""id":"a","title":"You’re offline",\#(buttons)"#)), [false])
        XCTAssertEqual(plain(event("alert.presented", #""id":"a","title":"Line\nbreak",\#(buttons)"#)), [false])
        XCTAssertEqual(
            plain(event("alert.presented", #""id":"a","title":"T","buttons":[{"title":"キャンセル","style":"cancel"}]"#)),
            [false]
        )
        XCTAssertEqual(plain(event("alert.presented", #""id":"a", "title" : "Spaced", "message":"Ünïcode""#)), [false])
        let batch = [
            event("alert.presented", #""id":"a","title":"Offline""#),
            event("alert.presented", #""id":"b","title":"Hors ligne — réessayer""#),
            event("alert.presented", #""id":"c","title":"Offline again""#),
        ].joined(separator: "\n")
        XCTAssertEqual(plain(batch), [true, false, true])
    }
}
