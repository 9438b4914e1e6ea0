import EventDecoding
import ModalwatchABI
import ModalwatchClient
import XCTest

/// Every event type, encoded by the client and read back by the daemon's own decoder.
final class EventEncoderTests: XCTestCase {
    static let everyEvent: [ClientEvent] = [
        .appBackground, .appForeground,
        .userAction(control: .toolbarButton, label: "Trash \"all\"\n", destructive: true),
        .userAction(),
        .taskProgress(task: "sync", state: .started),
        .alertPresented(
            id: "a1",
            title: "Delete?",
            message: nil,
            buttons: [
                AlertButton("Delete", style: .destructive), AlertButton("Cancel", style: .cancel, preferred: true),
            ],
            textFields: [TextField(secure: true)]
        ),
        .alertDismissed(id: "a1", button: 1, via: .button),
        .sheetPresented(
            id: "sh1",
            title: nil,
            message: "Pick",
            buttons: [AlertButton("Delete Message", style: .destructive)],
            inPopover: true,
            fromPopover: false,
            background: "dark"
        ),
        .sheetDismissed(id: "sh1", button: nil, via: .background),
        .modalPresented(
            id: "m1",
            style: .formSheet,
            transition: .crossDissolve,
            title: "Compose",
            buttons: [ModalButton("Done", role: .done), ModalButton("Cancel", role: .cancel)],
            sizeClass: .regular
        ),
        .modalDismissed(id: "m1", via: .gesture, button: nil, unsavedChanges: true, confirmed: false),
        .popoverPresented(id: "p1"), .popoverDismissed(id: "p1"),
        .navPush(screen: "Détails ✓"), .navPop(screen: nil),
    ]

    private func decode(
        _ bytes: [UInt8],
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> (type: String, event: mw_event?) {
        let decoder = EventDecoder()
        var result: (String, mw_event?) = ("", nil)
        decoder.decode(bytes) { item in
            switch item {
            case .event(let event):
                let name = event.pointee.type_name
                result = (
                    String(decoding: UnsafeRawBufferPointer(start: name.ptr, count: name.len), as: UTF8.self),
                    event.pointee
                )
            case .rejected(let rejection):
                XCTFail("rejected: \(rejection) in \(String(decoding: bytes, as: UTF8.self))", file: file, line: line)
            }
        }
        return result
    }

    func testEveryTypeDecodesAsItself() {
        var seen: Set<String> = []
        for (offset, event) in Self.everyEvent.enumerated() {
            let bytes = EventEncoder.encode(
                event,
                session: "S1",
                app: offset.isMultiple(of: 2) ? "com.example.mail" : nil,
                ts: 1_732_290_000_000 + Int64(offset),
                seq: Int64(offset + 2)
            )
            let decoded = decode(bytes)
            XCTAssertEqual(decoded.type, event.typeName)
            XCTAssertEqual(decoded.event?.seq, Int64(offset + 2))
            XCTAssertEqual(decoded.event?.ts_sent, 1_732_290_000_000 + Int64(offset))
            seen.insert(event.typeName)
        }
        let start = decode(
            EventEncoder.sessionStart(
                session: "S1",
                app: "com.example.mail",
                ts: 5,
                seq: 1,
                appVersion: "1.0",
                os: "iOS 18",
                device: .pad,
                sizeClass: .regular,
                locale: "de_DE"
            )
        )
        XCTAssertEqual(start.type, "session.start")
        var locale: String?
        EventDecoder().decode(EventEncoder.sessionStart(session: "S1", app: "a", ts: 5, seq: 1, locale: "de_DE")) {
            item in
            guard case .event(let event) = item, let p = event.pointee.locale.ptr else { return }
            locale = String(decoding: UnsafeRawBufferPointer(start: p, count: event.pointee.locale.len), as: UTF8.self)
        }
        XCTAssertEqual(locale, "de-DE", "the session's locale, normalized by the decoder")
        XCTAssertEqual(start.event?.device, Int32(MW_DEVICE_PAD.rawValue))
        XCTAssertEqual(decode(EventEncoder.sessionEnd(session: "S1", app: nil, ts: 6, seq: nil)).type, "session.end")
        seen.formUnion(["session.start", "session.end"])
        XCTAssertEqual(seen.count, 16, "every type of events.md")
    }

    func testFieldsArriveAsSent() {
        let alert = decode(EventEncoder.encode(Self.everyEvent[5], session: "S1", app: nil, ts: 1, seq: nil))
        XCTAssertEqual(alert.event?.button_count, 2)
        XCTAssertEqual(alert.event?.secure_text_field_count, 1)
        XCTAssertEqual(alert.event?.seq, 0, "no seq when none is given")
        let modal = decode(EventEncoder.encode(Self.everyEvent[9], session: "S1", app: nil, ts: 1, seq: 1))
        XCTAssertEqual(modal.event?.modal_button_count, 2)
        XCTAssertEqual(modal.event?.unsaved_changes, Int32(MW_ABSENT))
        let action = EventEncoder.encode(Self.everyEvent[2], session: "S\u{1}", app: nil, ts: 1, seq: 1)
        XCTAssertEqual(
            String(decoding: action, as: UTF8.self),
            #"{"v":1,"type":"user.action","session":"S\u0001","ts":1,"seq":1,"control":"toolbar_button","label":"Trash \"all\"\n","destructive":true}"#
        )
        let dismissed = EventEncoder.encode(
            .alertDismissed(id: "a", button: nil, via: nil),
            session: "S",
            app: "x",
            ts: -5,
            seq: 3
        )
        XCTAssertEqual(
            String(decoding: dismissed, as: UTF8.self),
            #"{"v":1,"type":"alert.dismissed","session":"S","ts":-5,"seq":3,"app":"x","id":"a","button":null}"#
        )
    }
}
