import ByteBasics
import ModalwatchABI
import XCTest

@testable import EventDecoding

/// Every field of every type, and how enums, booleans and absent fields land in `mw_event`.
final class EventDecoderFieldTests: XCTestCase {
    private let decoder = EventDecoder()

    func testCommonFields() throws {
        let e = try XCTUnwrap(
            decoder.event(
                event("session.end", #""seq":7,"app":"com.example.mail""#, session: "S-1", ts: "1732290000123")
            )
        )
        XCTAssertEqual(e.type, MW_EVENT_SESSION_END.rawValue)
        XCTAssertEqual(e.typeName, "session.end")
        XCTAssertEqual(e.session, "S-1")
        XCTAssertEqual(e.app, "com.example.mail")
        XCTAssertEqual(e.ts, 1_732_290_000_123)
        XCTAssertEqual(e.tsSent, 1_732_290_000_123)
        XCTAssertEqual(e.seq, 7)
    }

    func testAbsentFieldsAreNullAbsentOrZero() throws {
        let e = try XCTUnwrap(decoder.event(event("session.end")))
        XCTAssertNil(e.app)
        XCTAssertEqual(e.seq, 0)
        for s in [e.id, e.title, e.message, e.background, e.appVersion, e.os, e.label, e.task, e.screen] {
            XCTAssertNil(s)
        }
        XCTAssertNil(e.buttons)
        XCTAssertNil(e.modalButtons)
        XCTAssertEqual(e.hasButtons, 0)
        XCTAssertEqual(e.textFieldCount, 0)
        XCTAssertEqual(e.secureTextFieldCount, 0)
        for value in [
            e.inPopover, e.fromPopover, e.style, e.transition, e.sizeClass, e.button, e.via, e.unsavedChanges,
            e.confirmed, e.device, e.control, e.destructive, e.taskState,
        ] {
            XCTAssertEqual(value, MW_ABSENT)
        }
    }

    func testEveryTypeMapsToItsHeaderValue() throws {
        let types: [(String, mw_event_type, String)] = [
            ("session.start", MW_EVENT_SESSION_START, #""app":"a""#), ("session.end", MW_EVENT_SESSION_END, ""),
            ("app.background", MW_EVENT_APP_BACKGROUND, ""), ("app.foreground", MW_EVENT_APP_FOREGROUND, ""),
            ("user.action", MW_EVENT_USER_ACTION, ""),
            ("task.progress", MW_EVENT_TASK_PROGRESS, #""task":"t","state":"started""#),
            ("alert.presented", MW_EVENT_ALERT_PRESENTED, #""id":"x""#),
            ("alert.dismissed", MW_EVENT_ALERT_DISMISSED, #""id":"x""#),
            ("sheet.presented", MW_EVENT_SHEET_PRESENTED, #""id":"x""#),
            ("sheet.dismissed", MW_EVENT_SHEET_DISMISSED, #""id":"x""#),
            ("modal.presented", MW_EVENT_MODAL_PRESENTED, #""id":"x""#),
            ("modal.dismissed", MW_EVENT_MODAL_DISMISSED, #""id":"x""#),
            ("popover.presented", MW_EVENT_POPOVER_PRESENTED, #""id":"x""#),
            ("popover.dismissed", MW_EVENT_POPOVER_DISMISSED, #""id":"x""#),
            ("nav.push", MW_EVENT_NAV_PUSH, ""), ("nav.pop", MW_EVENT_NAV_POP, ""),
        ]
        XCTAssertEqual(types.count, Int(MW_EVENT_TYPE_COUNT.rawValue) - 1)
        for (name, type, extra) in types {
            let e = try XCTUnwrap(decoder.event(event(name, extra)), name)
            XCTAssertEqual(e.type, type.rawValue, name)
            XCTAssertEqual(e.typeName, name)
        }
    }

    /// ByteBasics' `WireEventType` (the names RuleKit and the client write) numbers every
    /// name as the decoder and the header's `mw_event_type` do.
    func testSharedWireNamesDecodeToTheirNumbers() throws {
        XCTAssertEqual(WireEventType.allCases.count, Int(MW_EVENT_TYPE_COUNT.rawValue) - 1)
        for type in WireEventType.allCases {
            let name = type.name.description
            let extra =
                switch type {
                case .sessionStart: #""app":"a""#
                case .taskProgress: #""task":"t","state":"started""#
                case .sessionEnd, .appBackground, .appForeground, .userAction, .navPush, .navPop: ""
                default: #""id":"x""#
                }
            let e = try XCTUnwrap(decoder.event(event(name, extra)), name)
            XCTAssertEqual(e.type, type.rawValue, name)
            XCTAssertEqual(e.typeName, name)
        }
    }

    func testUnknownTypeIsAcceptedWithItsName() throws {
        let e = try XCTUnwrap(decoder.event(event("toast.shown", #""id":5,"title":"x","buttons":"no""#)))
        XCTAssertEqual(e.type, MW_EVENT_UNKNOWN.rawValue)
        XCTAssertEqual(e.typeName, "toast.shown")
        XCTAssertNil(e.id)
        XCTAssertNil(e.title)
        XCTAssertNil(e.buttons)
        // Case matters: this is not alert.presented, so its missing id is no problem.
        XCTAssertEqual(decoder.event(event("Alert.Presented"))?.type, MW_EVENT_UNKNOWN.rawValue)
    }

    func testSessionStart() throws {
        let e = try XCTUnwrap(
            decoder.event(
                event(
                    "session.start",
                    #""app":"com.example.mail","app_version":"3.2","os":"iOS 17","device":"pad","size_class":"regular""#
                )
            )
        )
        XCTAssertEqual(e.app, "com.example.mail")
        XCTAssertEqual(e.appVersion, "3.2")
        XCTAssertEqual(e.os, "iOS 17")
        XCTAssertEqual(e.device, Int32(MW_DEVICE_PAD.rawValue))
        XCTAssertEqual(e.sizeClass, Int32(MW_SIZE_REGULAR.rawValue))
        let devices: [String: mw_device] = [
            "phone": MW_DEVICE_PHONE, "pad": MW_DEVICE_PAD, "mac": MW_DEVICE_MAC, "tv": MW_DEVICE_TV,
            "vision": MW_DEVICE_VISION,
        ]
        for (name, value) in devices {
            XCTAssertEqual(
                decoder.event(event("session.start", #""app":"a","device":"\#(name)""#))?.device,
                Int32(value.rawValue),
                name
            )
        }
        XCTAssertEqual(
            decoder.event(event("session.start", #""app":"a","size_class":"compact""#))?.sizeClass,
            Int32(MW_SIZE_COMPACT.rawValue)
        )
    }

    func testUserAction() throws {
        let controls: [String: mw_control] = [
            "button": MW_CONTROL_BUTTON, "bar_button": MW_CONTROL_BAR_BUTTON,
            "toolbar_button": MW_CONTROL_TOOLBAR_BUTTON,
            "cell": MW_CONTROL_CELL, "gesture": MW_CONTROL_GESTURE, "key": MW_CONTROL_KEY, "other": MW_CONTROL_OTHER,
        ]
        for (name, value) in controls {
            let e = try XCTUnwrap(
                decoder.event(event("user.action", #""control":"\#(name)","label":"Trash","destructive":true"#))
            )
            XCTAssertEqual(e.control, Int32(value.rawValue), name)
            XCTAssertEqual(e.label, "Trash")
            XCTAssertEqual(e.destructive, 1)
        }
        let e = try XCTUnwrap(decoder.event(event("user.action", #""label":null,"destructive":false"#)))
        XCTAssertNil(e.label)
        XCTAssertEqual(e.destructive, 0)
        XCTAssertEqual(e.control, MW_ABSENT)
    }

    func testTaskProgress() throws {
        let states: [String: mw_task_state] = [
            "started": MW_TASK_STARTED, "progress": MW_TASK_PROGRESS, "finished": MW_TASK_FINISHED,
            "failed": MW_TASK_FAILED, "cancelled": MW_TASK_CANCELLED,
        ]
        for (name, value) in states {
            let e = try XCTUnwrap(decoder.event(event("task.progress", #""task":"sync","state":"\#(name)""#)))
            XCTAssertEqual(e.task, "sync")
            XCTAssertEqual(e.taskState, Int32(value.rawValue), name)
        }
    }

    func testAlertPresented() throws {
        let e = try XCTUnwrap(
            decoder.event(
                event(
                    "alert.presented",
                    #"""
                    "id":"a1","title":"Delete?","message":null,
                    "buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel","preferred":true},{"title":"More","preferred":false,"style":"default"},{"title":"Plain"}],
                    "text_fields":[{"secure":true},{},{"secure":false},{"secure":true,"placeholder":"x"}]
                    """#
                )
            )
        )
        XCTAssertEqual(e.id, "a1")
        XCTAssertEqual(e.title, "Delete?")
        XCTAssertNil(e.message)
        XCTAssertEqual(e.hasButtons, 1)
        XCTAssertEqual(
            e.buttons,
            [
                .init(title: "Delete", style: Int32(MW_BUTTON_DESTRUCTIVE.rawValue), preferred: MW_ABSENT),
                .init(title: "Cancel", style: Int32(MW_BUTTON_CANCEL.rawValue), preferred: 1),
                .init(title: "More", style: Int32(MW_BUTTON_DEFAULT.rawValue), preferred: 0),
                .init(title: "Plain", style: MW_ABSENT, preferred: MW_ABSENT),
            ]
        )
        XCTAssertNil(e.modalButtons)
        XCTAssertEqual(e.textFieldCount, 4)
        XCTAssertEqual(e.secureTextFieldCount, 2)
    }

    func testEmptyButtonsArrayIsPresent() throws {
        let e = try XCTUnwrap(decoder.event(event("alert.presented", #""id":"a1","buttons":[ ],"text_fields":[]"#)))
        XCTAssertEqual(e.hasButtons, 1)
        XCTAssertEqual(e.buttons, [])
        XCTAssertEqual(e.textFieldCount, 0)
    }

    func testButtonsDoNotLeakIntoTheNextEvent() throws {
        XCTAssertEqual(
            decoder.event(event("alert.presented", #""id":"a1","buttons":[{"title":"OK"}]"#))?.buttons?.count,
            1
        )
        let e = try XCTUnwrap(decoder.event(event("alert.presented", #""id":"a2""#)))
        XCTAssertNil(e.buttons)
        XCTAssertEqual(e.hasButtons, 0)
    }

    func testDismissals() throws {
        let vias: [String: mw_via] = [
            "button": MW_VIA_BUTTON, "background": MW_VIA_BACKGROUND, "programmatic": MW_VIA_PROGRAMMATIC,
            "gesture": MW_VIA_GESTURE,
        ]
        for type in ["alert.dismissed", "sheet.dismissed"] {
            for (name, value) in vias {
                let e = try XCTUnwrap(decoder.event(event(type, #""id":"x","button":3,"via":"\#(name)""#)))
                XCTAssertEqual(e.id, "x")
                XCTAssertEqual(e.button, 3)
                XCTAssertEqual(e.via, Int32(value.rawValue))
            }
            XCTAssertEqual(decoder.event(event(type, #""id":"x","button":null"#))?.button, MW_ABSENT)
            XCTAssertEqual(decoder.event(event(type, #""id":"x","button":0"#))?.button, 0)
            XCTAssertEqual(decoder.event(event(type, #""id":"x","button":2147483647"#))?.button, Int32.max)
        }
    }

    func testSheetPresented() throws {
        let e = try XCTUnwrap(
            decoder.event(
                event(
                    "sheet.presented",
                    #""id":"sh1","title":"T","message":"M","buttons":[{"title":"Delete","style":"destructive"}],"in_popover":true,"from_popover":false,"background":"dark""#
                )
            )
        )
        XCTAssertEqual(e.id, "sh1")
        XCTAssertEqual(e.title, "T")
        XCTAssertEqual(e.message, "M")
        XCTAssertEqual(
            e.buttons,
            [.init(title: "Delete", style: Int32(MW_BUTTON_DESTRUCTIVE.rawValue), preferred: MW_ABSENT)]
        )
        XCTAssertEqual(e.inPopover, 1)
        XCTAssertEqual(e.fromPopover, 0)
        XCTAssertEqual(e.background, "dark")
    }

    func testModalPresented() throws {
        let styles: [String: mw_modal_style] = [
            "automatic": MW_STYLE_AUTOMATIC, "full_screen": MW_STYLE_FULL_SCREEN, "page_sheet": MW_STYLE_PAGE_SHEET,
            "form_sheet": MW_STYLE_FORM_SHEET, "current_context": MW_STYLE_CURRENT_CONTEXT,
            "over_full_screen": MW_STYLE_OVER_FULL_SCREEN, "over_current_context": MW_STYLE_OVER_CURRENT_CONTEXT,
            "custom": MW_STYLE_CUSTOM,
        ]
        for (name, value) in styles {
            XCTAssertEqual(
                decoder.event(event("modal.presented", #""id":"m","style":"\#(name)""#))?.style,
                Int32(value.rawValue),
                name
            )
        }
        let transitions: [String: mw_transition] = [
            "cover_vertical": MW_TRANSITION_COVER_VERTICAL, "flip_horizontal": MW_TRANSITION_FLIP_HORIZONTAL,
            "cross_dissolve": MW_TRANSITION_CROSS_DISSOLVE, "partial_curl": MW_TRANSITION_PARTIAL_CURL,
            "custom": MW_TRANSITION_CUSTOM,
        ]
        for (name, value) in transitions {
            XCTAssertEqual(
                decoder.event(event("modal.presented", #""id":"m","transition":"\#(name)""#))?.transition,
                Int32(value.rawValue),
                name
            )
        }
        let e = try XCTUnwrap(
            decoder.event(
                event(
                    "modal.presented",
                    #""id":"m1","title":"Compose","size_class":"regular","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"},{"title":"Done","role":"done"},{"title":"Other","role":"other"},{"title":"None","style":"bogus"}]"#
                )
            )
        )
        XCTAssertEqual(e.title, "Compose")
        XCTAssertEqual(e.sizeClass, Int32(MW_SIZE_REGULAR.rawValue))
        XCTAssertEqual(e.hasButtons, 1)
        XCTAssertNil(e.buttons)
        XCTAssertEqual(
            e.modalButtons,
            [
                .init(title: "Cancel", role: Int32(MW_ROLE_CANCEL.rawValue)),
                .init(title: "Send", role: Int32(MW_ROLE_CONFIRM.rawValue)),
                .init(title: "Done", role: Int32(MW_ROLE_DONE.rawValue)),
                .init(title: "Other", role: Int32(MW_ROLE_OTHER.rawValue)),
                .init(title: "None", role: MW_ABSENT),
            ]
        )
    }

    func testModalDismissed() throws {
        let e = try XCTUnwrap(
            decoder.event(
                event(
                    "modal.dismissed",
                    #""id":"m1","via":"gesture","button":null,"unsaved_changes":true,"confirmed":false"#
                )
            )
        )
        XCTAssertEqual(e.id, "m1")
        XCTAssertEqual(e.via, Int32(MW_VIA_GESTURE.rawValue))
        XCTAssertEqual(e.button, MW_ABSENT)
        XCTAssertEqual(e.unsavedChanges, 1)
        XCTAssertEqual(e.confirmed, 0)
    }

    func testPopoverAndNavigation() throws {
        XCTAssertEqual(decoder.event(event("popover.presented", #""id":"p1""#))?.id, "p1")
        XCTAssertEqual(decoder.event(event("popover.dismissed", #""id":"p1""#))?.id, "p1")
        XCTAssertEqual(decoder.event(event("nav.push", #""screen":"Settings""#))?.screen, "Settings")
        XCTAssertNil(decoder.event(event("nav.pop", #""screen":null"#))?.screen)
    }

    func testFieldsOfOtherTypesAreIgnoredNotChecked() throws {
        let e = try XCTUnwrap(
            decoder.event(
                event(
                    "alert.dismissed",
                    #""id":"a1","title":5,"buttons":"x","device":"android","in_popover":"yes","style":"bogus""#
                )
            )
        )
        XCTAssertNil(e.title)
        XCTAssertNil(e.buttons)
        XCTAssertEqual(e.hasButtons, 0)
        XCTAssertEqual(e.device, MW_ABSENT)
        XCTAssertEqual(e.inPopover, MW_ABSENT)
        XCTAssertEqual(e.style, MW_ABSENT)
        // A presentation's own fields are not read on other types.
        XCTAssertNil(decoder.event(event("user.action", #""id":"x""#))?.id)
    }

    func testUnknownFieldsAreSkipped() throws {
        let e = try XCTUnwrap(
            decoder.event(
                event(
                    "nav.push",
                    #""screen":"A","x":{"a":[1,-2.5e-3,true,false,null,{"b":"\u00e9"}],"c":{}},"y":[[[]]],"z":1e999999,"w":123456789012345678901234567890"#
                )
            )
        )
        XCTAssertEqual(e.screen, "A")
    }

    func testEscapes() throws {
        let e = try XCTUnwrap(
            decoder.event(
                #"{"v":1,"type":"alert.presented","session":"S\/1","ts":1,"id":"a\"1","title":"L\nT\t\u00e9 \ud83d\ude00 \\ \b\f\r","message":"a\u0000b","buttons":[{"title":"\u004fK","style":"c\u0061ncel"}]}"#
            )
        )
        XCTAssertEqual(e.session, "S/1")
        XCTAssertEqual(e.id, "a\"1")
        XCTAssertEqual(e.title.map { Array($0.utf8) }, Array("L\nT\té 😀 \\ \u{8}\u{c}\r".utf8))
        XCTAssertEqual(e.message.map { Array($0.utf8) }, [0x61, 0, 0x62])
        XCTAssertEqual(e.buttons, [.init(title: "OK", style: Int32(MW_BUTTON_CANCEL.rawValue), preferred: MW_ABSENT)])
    }

    func testEscapedKeysAndTypeValue() throws {
        let e = try XCTUnwrap(
            decoder.event(#"{"v":1,"\u0074ype":"alert\u002epresented","sess\u0069on":"S1","ts":1,"\u0069d":"a1"}"#)
        )
        XCTAssertEqual(e.type, MW_EVENT_ALERT_PRESENTED.rawValue)
        XCTAssertEqual(e.id, "a1")
    }

    func testCurlyQuotesAndEmojiAreKeptAsSent() throws {
        let title = "“Quoted” — it’s 😀 🇫🇷 中文 e\u{301}"
        let e = try XCTUnwrap(decoder.event(event("alert.presented", #""id":"a1","title":"\#(title)""#)))
        XCTAssertEqual(e.title.map { Array($0.utf8) }, Array(title.utf8))
    }

    /// Strings without escapes point into the payload; strings with escapes into the decoder's arena.
    func testStringsPointIntoThePayloadUnlessEscaped() throws {
        let payload = Array(#"{"v":1,"type":"nav.push","session":"S1","ts":1,"screen":"a\nb"}"#.utf8)
        var checked = false
        payload.withUnsafeBytes { bytes in
            decoder.decode(bytes) { item in
                guard case .event(let e) = item else { return XCTFail("rejected") }
                let range = UInt(bitPattern: bytes.baseAddress!)..<UInt(bitPattern: bytes.baseAddress! + bytes.count)
                XCTAssertTrue(range.contains(UInt(bitPattern: e.pointee.session.ptr!)))
                XCTAssertTrue(range.contains(UInt(bitPattern: e.pointee.type_name.ptr!)))
                XCTAssertFalse(range.contains(UInt(bitPattern: e.pointee.screen.ptr!)))
                XCTAssertEqual(e.pointee.screen.len, 3)
                checked = true
            }
        }
        XCTAssertTrue(checked)
    }

    func testDuplicateKeysLastWins() throws {
        let e = try XCTUnwrap(
            decoder.event(
                #"{"v":1,"type":"alert.presented","ts":"bad","session":"","session":"S2","ts":5,"id":"a","id":"b","buttons":[{"title":1,"title":"OK","style":"x","style":"cancel"}]}"#
            )
        )
        XCTAssertEqual(e.session, "S2")
        XCTAssertEqual(e.ts, 5)
        XCTAssertEqual(e.id, "b")
        XCTAssertEqual(e.buttons, [.init(title: "OK", style: Int32(MW_BUTTON_CANCEL.rawValue), preferred: MW_ABSENT)])
        XCTAssertEqual(decoder.rejection(#"{"v":1,"type":"session.end","session":"S1","ts":1,"ts":-1}"#)?.field, "ts")
    }

    func testIntegralNumbersAreIntegers() throws {
        for (text, value) in [
            ("1732290000000", 1_732_290_000_000), ("1.73229e12", 1_732_290_000_000), ("1.5E3", 1500),
            ("1500.000", 1500),
            ("15000e-1", 1500), ("0", 0), ("-0", 0), ("-0.0", 0), ("0e400", 0), ("0.0e-5", 0),
            ("253402300799999", 253_402_300_799_999), ("2534023007999.99e2", 253_402_300_799_999),
        ] as [(String, Int64)] {
            XCTAssertEqual(decoder.event(event("session.end", ts: text))?.ts, value, text)
        }
        for (text, value) in [
            ("9007199254740991", 9_007_199_254_740_991), ("900719925474099.1e1", 9_007_199_254_740_991),
        ] as [(String, Int64)] {
            XCTAssertEqual(decoder.event(event("session.end", #""seq":\#(text)"#))?.seq, value, text)
            XCTAssertEqual(decoder.rejection(event("session.end", ts: text))?.field, "ts", "past year 9999: \(text)")
        }
        for text in ["9223372036854775807", "922337203685477580.7e1", "9007199254740992"] {
            XCTAssertEqual(
                decoder.rejection(event("session.end", #""seq":\#(text)"#))?.field,
                "seq",
                "past 2^53 - 1: \(text)"
            )
        }
        for v in ["1", "1.0", "1e0", "10e-1", "0.1e1", "1.000E+0"] {
            XCTAssertNotNil(decoder.event(#"{"v":\#(v),"type":"session.end","session":"S1","ts":1}"#), v)
        }
        XCTAssertEqual(decoder.event(event("session.end", #""seq":1.0"#))?.seq, 1)
        XCTAssertEqual(decoder.event(event("session.end", #""seq":9007199254740991"#))?.seq, 9_007_199_254_740_991)
        XCTAssertEqual(decoder.event(event("alert.dismissed", #""id":"a","button":2.0"#))?.button, 2)
    }

    func testNonIntegralAndHugeNumbersAreBadFields() {
        for text in [
            "1.5", "1e-1", "0.0000001", "9223372036854775808", "1e19", "1e300", "1e400",
            "123456789012345678901234567890",
            "-1", "-9223372036854775808", "-1e400", "1.0000000000000000001",
        ] {
            let r = decoder.rejection(event("session.end", ts: text))
            XCTAssertEqual(r?.reason, .badField, text)
            XCTAssertEqual(r?.field, "ts", text)
        }
    }

    // MARK: app ids and topics

    /// `app` goes into the topics (`violation/<app>/<rule>`): a `/`, a space or a control character
    /// in it is bad_field, however it is written (plain, escaped, at any offset of the 8-byte scan).
    func testAppIdsThatWouldBreakATopicAreBadField() throws {
        for bad in [
            #"com.victim/alert-title-single-word/x"#, #"com.victim\/x"#, "/", "a b", #"a\u0000"#, #"a\u001f"#,
            #"a\u007f"#, #"a\u0085"#, #"a\u009f"#, #"a\t"#, #"com.example.mail.longer.than.eight/"#,
        ] {
            for type in ["session.start", "session.end"] {
                let r = try XCTUnwrap(decoder.rejection(event(type, #""app":"\#(bad)""#)), bad)
                XCTAssertEqual(r.reason, .badField, bad)
                XCTAssertEqual(r.field, "app", bad)
                XCTAssertEqual(
                    r.detail,
                    "field 'app' must not contain '/', whitespace or control characters (it is part of the topic)"
                )
            }
        }
        for good in [
            "com.example.mail", "a", "com.exämple-2_x.mail", #"a\u00a0b"#, "x.y.z.0123456789abcdef", #"\u00e9t\u00e9"#,
        ] {
            XCTAssertNotNil(decoder.event(event("session.start", #""app":"\#(good)""#)), good)
        }
        // Every position of a forbidden byte within and past the first 8-byte words.
        for length in 1...20 {
            for position in 0..<length {
                var bytes = Array(repeating: "a", count: length)
                bytes[position] = "/"
                let app = bytes.joined()
                XCTAssertEqual(decoder.rejection(event("session.start", #""app":"\#(app)""#))?.field, "app", app)
            }
        }
    }

    /// The word-at-a-time test agrees with the byte test on every byte value at every position.
    func testAppCharacterMaskAgreesWithTheByteTest() {
        for position in 0..<8 {
            for byte in 0...255 {
                var word = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                word[position] = UInt8(byte)
                let loaded = word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                let suspect = AppCharacters.suspectMask(loaded) != 0
                XCTAssertEqual(suspect, !AppCharacters.isPlain(UInt8(byte)), "byte \(byte) at \(position)")
            }
        }
    }
}
