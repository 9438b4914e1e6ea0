import EventDecoding
import ModalwatchABI

/// One decoder and what must hold of everything it hands over (docs/decoder.md, events.md).
///
/// - every item is an event or a rejection, indexed 0, 1, 2, ... in order;
/// - an event: each `mw_str` is NULL with length 0, or points inside the payload or the decoder's
///   arena and is valid UTF-8 within its limit; enumerations are a header value or `MW_ABSENT`;
///   button arrays are the decoder's, within `maxButtons`; fields of other types are absent;
/// - a rejection: a one-line detail, an offset inside the payload, no field for malformed JSON;
/// - counts: events ≤ `maxBatchEvents`; an oversized payload is one `too_large` rejection.
final class EventInvariants {
    /// What one payload gave.
    struct Summary {
        var items = 0
        var events = 0
    }

    let decoder: EventDecoder
    private let limits: EventLimits
    /// The decoder's scratch storage, found by reflection (it is private to the decoder).
    private let arena: UnsafeRawBufferPointer
    private let buttons: UnsafeRawPointer
    private let modalButtons: UnsafeRawPointer

    init(decoder: EventDecoder) {
        self.decoder = decoder
        limits = decoder.limits
        guard let scratch = Mirror(reflecting: decoder).descendant("scratch") else {
            FuzzCheck.fail("EventDecoder has no 'scratch' any more: update the fuzz target")
        }
        let storage = Mirror(reflecting: scratch)
        guard let arena = storage.descendant("arena") as? UnsafeMutablePointer<UInt8>,
            let capacity = storage.descendant("arenaCapacity") as? Int,
            let buttons = storage.descendant("buttons") as? UnsafeMutablePointer<mw_button>,
            let modalButtons = storage.descendant("modalButtons") as? UnsafeMutablePointer<mw_modal_button>
        else {
            FuzzCheck.fail("EventScratch changed shape: update the fuzz target")
        }
        self.arena = UnsafeRawBufferPointer(start: arena, count: capacity)
        self.buttons = UnsafeRawPointer(buttons)
        self.modalButtons = UnsafeRawPointer(modalButtons)
    }

    /// Decodes `payload` and checks every item; traps on the first broken invariant.
    func decodeAndCheck(_ payload: UnsafeRawBufferPointer) -> Summary {
        var summary = Summary()
        decoder.decode(payload) { item in
            switch item {
            case .event(let event):
                FuzzCheck.require(summary.events < limits.maxBatchEvents, "more events than maxBatchEvents")
                check(event.pointee, payload)
                summary.events += 1
            case .rejected(let rejection):
                check(rejection, index: summary.items, payload)
            }
            summary.items += 1
        }
        FuzzCheck.require(summary.items >= 1, "a payload gave no item at all")
        if payload.count > limits.maxPayloadBytes {
            FuzzCheck.require(summary.items == 1 && summary.events == 0, "an oversized payload must be one rejection")
        }
        return summary
    }

    // MARK: rejections

    private func check(_ r: Rejection, index: Int, _ payload: UnsafeRawBufferPointer) {
        FuzzCheck.require(r.index == index, "rejection index \(r.index), expected \(index)")
        FuzzCheck.require(
            r.offset >= 0 && r.offset <= payload.count,
            "rejection offset \(r.offset) outside the payload"
        )
        FuzzCheck.require(!r.detail.isEmpty, "rejection without detail")
        FuzzCheck.require(
            !r.detail.contains("\n") && !r.detail.contains("\r"),
            "rejection detail is not one line: \(r.detail)"
        )
        if r.reason == .malformedJSON { FuzzCheck.require(r.field == nil, "malformed_json with a field: \(r)") }
        if index >= limits.maxBatchEvents {
            FuzzCheck.require(r.reason == .tooLarge, "item past the batch limit not too_large: \(r)")
        }
        if let session = r.session {
            FuzzCheck.require((1...limits.maxSessionBytes).contains(session.utf8.count), "rejection session length")
        }
        if let app = r.app {
            FuzzCheck.require((1...limits.maxAppBytes).contains(app.utf8.count), "rejection app length")
        }
    }

    // MARK: events

    private func check(_ e: mw_event, _ payload: UnsafeRawBufferPointer) {
        let type = e.type
        FuzzCheck.require(type < MW_EVENT_TYPE_COUNT.rawValue, "type \(type) out of range")
        FuzzCheck.require(e.reserved0 == 0 && e.reserved1 == 0 && e.reserved2 == 0, "reserved field set")
        check(e.type_name, payload, max: limits.maxStringBytes, required: true, "type_name")
        check(e.session, payload, max: limits.maxSessionBytes, required: true, "session")
        check(e.app, payload, max: limits.maxAppBytes, required: type == MW_EVENT_SESSION_START.rawValue, "app")
        if e.app.ptr != nil { FuzzCheck.require(e.app.len >= 1, "empty app accepted") }
        FuzzCheck.require(e.session.len >= 1 && e.type_name.len >= 1, "empty session or type accepted")
        FuzzCheck.require(e.ts >= 0 && e.ts_sent == e.ts, "ts \(e.ts) / ts_sent \(e.ts_sent)")
        FuzzCheck.require(e.seq >= 0, "seq \(e.seq)")

        let presentation = (MW_EVENT_ALERT_PRESENTED.rawValue...MW_EVENT_POPOVER_DISMISSED.rawValue).contains(type)
        check(e.id, payload, max: limits.maxIdBytes, required: presentation, "id")
        if presentation { FuzzCheck.require(e.id.len >= 1, "empty id accepted") } else { absent(e.id, "id") }

        let titled = [MW_EVENT_ALERT_PRESENTED, MW_EVENT_SHEET_PRESENTED, MW_EVENT_MODAL_PRESENTED].map(\.rawValue)
            .contains(type)
        let messaged = type == MW_EVENT_ALERT_PRESENTED.rawValue || type == MW_EVENT_SHEET_PRESENTED.rawValue
        check(e.title, payload, max: limits.maxStringBytes, "title")
        check(e.message, payload, max: limits.maxStringBytes, "message")
        if !titled { absent(e.title, "title") }
        if !messaged { absent(e.message, "message") }

        checkButtons(e, payload)

        if type != MW_EVENT_ALERT_PRESENTED.rawValue {
            FuzzCheck.require(e.text_field_count == 0 && e.secure_text_field_count == 0, "text fields on \(type)")
        }
        FuzzCheck.require(e.text_field_count <= limits.maxTextFields, "text_field_count over the limit")
        FuzzCheck.require(e.secure_text_field_count <= e.text_field_count, "more secure fields than fields")

        let sheet = type == MW_EVENT_SHEET_PRESENTED.rawValue
        let modal = type == MW_EVENT_MODAL_PRESENTED.rawValue
        let dismissal = [MW_EVENT_ALERT_DISMISSED, MW_EVENT_SHEET_DISMISSED, MW_EVENT_MODAL_DISMISSED].map(\.rawValue)
            .contains(type)
        enumeration(e.in_popover, 0...1, allowed: sheet, "in_popover")
        enumeration(e.from_popover, 0...1, allowed: sheet, "from_popover")
        check(e.background, payload, max: limits.maxBackgroundBytes, "background")
        if !sheet { absent(e.background, "background") }
        enumeration(e.style, 0...7, allowed: modal, "style")
        enumeration(e.transition, 0...4, allowed: modal, "transition")
        enumeration(e.size_class, 0...1, allowed: modal || type == MW_EVENT_SESSION_START.rawValue, "size_class")

        enumeration(e.button, 0...Int32.max, allowed: dismissal, "button")
        enumeration(e.via, 0...3, allowed: dismissal, "via")
        enumeration(e.unsaved_changes, 0...1, allowed: type == MW_EVENT_MODAL_DISMISSED.rawValue, "unsaved_changes")
        enumeration(e.confirmed, 0...1, allowed: type == MW_EVENT_MODAL_DISMISSED.rawValue, "confirmed")

        let start = type == MW_EVENT_SESSION_START.rawValue
        enumeration(e.device, 0...4, allowed: start, "device")
        check(e.app_version, payload, max: limits.maxStringBytes, "app_version")
        check(e.os, payload, max: limits.maxStringBytes, "os")
        if !start {
            absent(e.app_version, "app_version")
            absent(e.os, "os")
        }

        let action = type == MW_EVENT_USER_ACTION.rawValue
        enumeration(e.control, 0...6, allowed: action, "control")
        enumeration(e.destructive, 0...1, allowed: action, "destructive")
        check(e.label, payload, max: limits.maxStringBytes, "label")
        if !action { absent(e.label, "label") }

        let task = type == MW_EVENT_TASK_PROGRESS.rawValue
        check(e.task, payload, max: limits.maxTaskBytes, required: task, "task")
        if task {
            FuzzCheck.require(e.task.len >= 1 && e.task_state != MW_ABSENT, "task.progress without task or state")
        } else {
            absent(e.task, "task")
        }
        enumeration(e.task_state, 0...4, allowed: task, "task_state")

        let nav = type == MW_EVENT_NAV_PUSH.rawValue || type == MW_EVENT_NAV_POP.rawValue
        check(e.screen, payload, max: limits.maxStringBytes, "screen")
        if !nav { absent(e.screen, "screen") }
    }

    private func checkButtons(_ e: mw_event, _ payload: UnsafeRawBufferPointer) {
        let type = e.type
        let plain = type == MW_EVENT_ALERT_PRESENTED.rawValue || type == MW_EVENT_SHEET_PRESENTED.rawValue
        let modal = type == MW_EVENT_MODAL_PRESENTED.rawValue
        FuzzCheck.require(e.has_buttons == 0 || e.has_buttons == 1, "has_buttons \(e.has_buttons)")
        FuzzCheck.require(
            e.button_count <= limits.maxButtons && e.modal_button_count <= limits.maxButtons,
            "too many buttons"
        )
        if e.has_buttons == 0 {
            FuzzCheck.require(
                e.buttons == nil && e.button_count == 0 && e.modal_buttons == nil && e.modal_button_count == 0,
                "buttons without has_buttons"
            )
            return
        }
        FuzzCheck.require(plain || modal, "has_buttons on type \(type)")
        if plain {
            FuzzCheck.require(e.modal_buttons == nil && e.modal_button_count == 0, "modal buttons on an alert or sheet")
            guard let buttons = e.buttons else { FuzzCheck.fail("has_buttons with a NULL buttons array") }
            FuzzCheck.require(UnsafeRawPointer(buttons) == self.buttons, "buttons array is not the decoder's")
            for i in 0..<Int(e.button_count) {
                let b = buttons[i]
                check(b.title, payload, max: limits.maxStringBytes, required: true, "buttons[\(i)].title")
                FuzzCheck.require(b.style == MW_ABSENT || (0...2).contains(b.style), "button style \(b.style)")
                FuzzCheck.require(
                    b.preferred == MW_ABSENT || (0...1).contains(b.preferred),
                    "button preferred \(b.preferred)"
                )
            }
        } else {
            FuzzCheck.require(e.buttons == nil && e.button_count == 0, "alert buttons on a modal")
            guard let buttons = e.modal_buttons else { FuzzCheck.fail("has_buttons with a NULL modal_buttons array") }
            FuzzCheck.require(UnsafeRawPointer(buttons) == modalButtons, "modal_buttons array is not the decoder's")
            for i in 0..<Int(e.modal_button_count) {
                let b = buttons[i]
                check(b.title, payload, max: limits.maxStringBytes, required: true, "modal_buttons[\(i)].title")
                FuzzCheck.require(b.role == MW_ABSENT || (0...3).contains(b.role), "modal button role \(b.role)")
                FuzzCheck.require(b.reserved == 0, "modal button reserved field set")
            }
        }
    }

    // MARK: values

    /// A string: NULL (length 0) unless `required`; else inside the payload or the arena, at most
    /// `max` bytes, valid UTF-8.
    private func check(_ s: mw_str, _ payload: UnsafeRawBufferPointer, max: Int, required: Bool = false, _ name: String)
    {
        guard let raw = s.ptr else {
            FuzzCheck.require(s.len == 0, "\(name): NULL with length \(s.len)")
            FuzzCheck.require(!required, "\(name): required but NULL")
            return
        }
        FuzzCheck.require(s.len <= max, "\(name): \(s.len) bytes, over the limit of \(max)")
        let start = UnsafeRawPointer(raw)
        FuzzCheck.require(
            Self.contains(payload, start, s.len) || Self.contains(arena, start, s.len),
            "\(name): points outside the payload and the arena"
        )
        let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: s.len)
        FuzzCheck.require(String(validating: bytes, as: UTF8.self) != nil, "\(name): not valid UTF-8")
    }

    private func absent(_ s: mw_str, _ name: String) {
        FuzzCheck.require(s.ptr == nil && s.len == 0, "\(name) filled in on an event of another type")
    }

    private func enumeration(_ value: Int32, _ range: ClosedRange<Int32>, allowed: Bool, _ name: String) {
        if allowed {
            FuzzCheck.require(value == MW_ABSENT || range.contains(value), "\(name) = \(value) out of range")
        } else {
            FuzzCheck.require(value == MW_ABSENT, "\(name) = \(value) filled in on an event of another type")
        }
    }

    private static func contains(_ buffer: UnsafeRawBufferPointer, _ start: UnsafeRawPointer, _ count: Int) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        return start >= base && start + count <= base + buffer.count
    }
}
