import EventDecoding
import ModalwatchABI
import XCTest

/// A copy of an `mw_event` in Swift values, to compare after the callback returned.
struct EventSnapshot: Equatable {
    struct Button: Equatable {
        var title: String?
        var style: Int32
        var preferred: Int32
    }

    struct ModalButton: Equatable {
        var title: String?
        var role: Int32
    }

    var type: UInt32
    var typeName: String?
    var session: String?
    var app: String?
    var ts: Int64
    var tsSent: Int64
    var seq: Int64
    var id: String?
    var title: String?
    var message: String?
    var buttons: [Button]?
    var hasButtons: Int32
    var modalButtons: [ModalButton]?
    var textFieldCount: UInt32
    var secureTextFieldCount: UInt32
    var inPopover: Int32
    var fromPopover: Int32
    var background: String?
    var style: Int32
    var transition: Int32
    var sizeClass: Int32
    var button: Int32
    var via: Int32
    var unsavedChanges: Int32
    var confirmed: Int32
    var device: Int32
    var appVersion: String?
    var os: String?
    var control: Int32
    var destructive: Int32
    var label: String?
    var task: String?
    var taskState: Int32
    var screen: String?
    var locale: String?

    init(_ pointer: UnsafePointer<mw_event>) {
        let e = pointer.pointee
        type = e.type
        typeName = Self.string(e.type_name)
        session = Self.string(e.session)
        app = Self.string(e.app)
        ts = e.ts
        tsSent = e.ts_sent
        seq = e.seq
        id = Self.string(e.id)
        title = Self.string(e.title)
        message = Self.string(e.message)
        buttons = e.buttons.map { p in
            (0..<Int(e.button_count)).map {
                Button(title: Self.string(p[$0].title), style: p[$0].style, preferred: p[$0].preferred)
            }
        }
        hasButtons = e.has_buttons
        modalButtons = e.modal_buttons.map { p in
            (0..<Int(e.modal_button_count)).map { ModalButton(title: Self.string(p[$0].title), role: p[$0].role) }
        }
        textFieldCount = e.text_field_count
        secureTextFieldCount = e.secure_text_field_count
        inPopover = e.in_popover
        fromPopover = e.from_popover
        background = Self.string(e.background)
        style = e.style
        transition = e.transition
        sizeClass = e.size_class
        button = e.button
        via = e.via
        unsavedChanges = e.unsaved_changes
        confirmed = e.confirmed
        device = e.device
        appVersion = Self.string(e.app_version)
        os = Self.string(e.os)
        control = e.control
        destructive = e.destructive
        label = Self.string(e.label)
        task = Self.string(e.task)
        taskState = e.task_state
        screen = Self.string(e.screen)
        locale = Self.string(e.locale)
    }

    /// The bytes of an `mw_str` as a String (they are always valid UTF-8), nil for NULL.
    static func string(_ s: mw_str) -> String? {
        guard let p = s.ptr else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: s.len), as: UTF8.self)
    }
}

/// What the decoder said about one event, kept after the callback.
enum Outcome {
    case event(EventSnapshot)
    case rejected(Rejection)

    var event: EventSnapshot? {
        if case .event(let e) = self { return e }
        return nil
    }

    var rejection: Rejection? {
        if case .rejected(let r) = self { return r }
        return nil
    }
}

extension EventDecoder {
    /// Decodes `payload` and keeps what the callback saw.
    func outcomes(_ payload: [UInt8]) -> [Outcome] {
        var result: [Outcome] = []
        decode(payload) { item in
            switch item {
            case .event(let e): result.append(.event(EventSnapshot(e)))
            case .rejected(let r): result.append(.rejected(r))
            }
        }
        return result
    }

    func outcomes(_ payload: String) -> [Outcome] { outcomes(Array(payload.utf8)) }

    /// Decodes a payload that must hold exactly one valid event.
    func event(_ payload: String, file: StaticString = #filePath, line: UInt = #line) -> EventSnapshot? {
        let items = outcomes(payload)
        XCTAssertEqual(items.count, 1, "items of \(payload)", file: file, line: line)
        guard let first = items.first else { return nil }
        if case .rejected(let r) = first { XCTFail("rejected: \(r) for \(payload)", file: file, line: line) }
        return first.event
    }

    /// Decodes a payload that must hold exactly one rejected event.
    func rejection(_ payload: String, file: StaticString = #filePath, line: UInt = #line) -> Rejection? {
        let items = outcomes(payload)
        XCTAssertEqual(items.count, 1, "items of \(payload)", file: file, line: line)
        guard let first = items.first else { return nil }
        if case .event(let e) = first {
            XCTFail("accepted as \(e.typeName ?? "?"): \(payload)", file: file, line: line)
        }
        return first.rejection
    }
}

/// A one-line event of `type` with the common fields and `extra` members (JSON text without braces).
func event(_ type: String, _ extra: String = "", session: String = "S1", ts: String = "1732290000000") -> String {
    #"{"v":1,"type":"\#(type)","session":"\#(session)","ts":\#(ts)\#(extra.isEmpty ? "" : "," + extra)}"#
}
