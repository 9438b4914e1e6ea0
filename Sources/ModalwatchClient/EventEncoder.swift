import ByteBasics

/// Encodes events to wire format v1 (events.md): one compact JSON object per event,
/// with `v`, `type`, `session`, `ts` and `seq` first. Strings are written as given
/// (Swift strings are valid UTF-8); limits are the caller's to keep (events.md, "Limits").
public enum EventEncoder: Sendable {
    /// `session.start`; `locale` is the app's interface language, a BCP 47 tag (`de-DE`; Apple's
    /// `de_DE` is accepted too: events.md, "Languages").
    public static func sessionStart(
        session: String,
        app: String,
        ts: Int64,
        seq: Int64?,
        appVersion: String? = nil,
        os: String? = nil,
        device: Device? = nil,
        sizeClass: SizeClass? = nil,
        locale: String? = nil
    ) -> [UInt8] {
        var writer = header(type: .sessionStart, session: session, ts: ts, seq: seq)
        writer.field("app", app)
        writer.field("app_version", appVersion, orNull: false)
        writer.field("os", os, orNull: false)
        writer.field("device", device?.rawValue, orNull: false)
        writer.field("size_class", sizeClass?.rawValue, orNull: false)
        writer.field("locale", locale, orNull: false)
        return writer.finish()
    }

    /// `session.end`.
    public static func sessionEnd(session: String, app: String?, ts: Int64, seq: Int64?) -> [UInt8] {
        var writer = header(type: .sessionEnd, session: session, ts: ts, seq: seq)
        writer.field("app", app, orNull: false)
        return writer.finish()
    }

    /// Any other event; `app`, when given, is repeated on it (it must match the session's).
    public static func encode(_ event: ClientEvent, session: String, app: String?, ts: Int64, seq: Int64?) -> [UInt8] {
        var writer = header(type: event.wireType, session: session, ts: ts, seq: seq)
        writer.field("app", app, orNull: false)
        switch event {
        case .appBackground, .appForeground:
            break
        case .userAction(let control, let label, let destructive):
            writer.field("control", control?.rawValue, orNull: false)
            writer.field("label", label, orNull: false)
            writer.field("destructive", destructive)
        case .taskProgress(let task, let state):
            writer.field("task", task)
            writer.field("state", state.rawValue)
        case .alertPresented(let id, let title, let message, let buttons, let textFields):
            writer.field("id", id)
            writer.field("title", title, orNull: true)
            writer.field("message", message, orNull: true)
            writeButtons(buttons, into: &writer)
            if let textFields {
                writer.field("text_fields") { writer in
                    writer.append(UInt8(ascii: "["))
                    for (index, field) in textFields.enumerated() {
                        if index > 0 { writer.append(UInt8(ascii: ",")) }
                        var item = JSONWriter(reserving: 16)
                        item.field("secure", field.secure)
                        for byte in item.finish() { writer.append(byte) }
                    }
                    writer.append(UInt8(ascii: "]"))
                }
            }
        case .alertDismissed(let id, let button, let via), .sheetDismissed(let id, let button, let via):
            writer.field("id", id)
            writer.field("button", index: button, orNull: true)
            writer.field("via", via?.rawValue, orNull: false)
        case .sheetPresented(
            let id,
            let title,
            let message,
            let buttons,
            let inPopover,
            let fromPopover,
            let background
        ):
            writer.field("id", id)
            writer.field("title", title, orNull: true)
            writer.field("message", message, orNull: true)
            writeButtons(buttons, into: &writer)
            writer.field("in_popover", inPopover)
            writer.field("from_popover", fromPopover)
            writer.field("background", background, orNull: false)
        case .modalPresented(let id, let style, let transition, let title, let buttons, let sizeClass):
            writer.field("id", id)
            writer.field("style", style?.rawValue, orNull: false)
            writer.field("transition", transition?.rawValue, orNull: false)
            writer.field("title", title, orNull: true)
            if let buttons {
                writer.field("buttons") { writer in
                    writer.append(UInt8(ascii: "["))
                    for (index, button) in buttons.enumerated() {
                        if index > 0 { writer.append(UInt8(ascii: ",")) }
                        var item = JSONWriter(reserving: 48)
                        item.field("title", button.title)
                        item.field("role", button.role?.rawValue, orNull: false)
                        for byte in item.finish() { writer.append(byte) }
                    }
                    writer.append(UInt8(ascii: "]"))
                }
            }
            writer.field("size_class", sizeClass?.rawValue, orNull: false)
        case .modalDismissed(let id, let via, let button, let unsavedChanges, let confirmed):
            writer.field("id", id)
            writer.field("via", via?.rawValue, orNull: false)
            writer.field("button", index: button, orNull: true)
            writer.field("unsaved_changes", unsavedChanges)
            writer.field("confirmed", confirmed)
        case .popoverPresented(let id), .popoverDismissed(let id):
            writer.field("id", id)
        case .navPush(let screen), .navPop(let screen):
            writer.field("screen", screen, orNull: false)
        }
        return writer.finish()
    }

    private static func header(type: WireEventType, session: String, ts: Int64, seq: Int64?) -> JSONWriter {
        var writer = JSONWriter()
        writer.field("v", 1)
        writer.field("type", plain: type.name)
        writer.field("session", session)
        writer.field("ts", ts)
        if let seq { writer.field("seq", seq) }
        return writer
    }

    private static func writeButtons(_ buttons: [AlertButton], into writer: inout JSONWriter) {
        writer.field("buttons") { writer in
            writer.append(UInt8(ascii: "["))
            for (index, button) in buttons.enumerated() {
                if index > 0 { writer.append(UInt8(ascii: ",")) }
                var item = JSONWriter(reserving: 64)
                item.field("title", button.title)
                item.field("style", button.style?.rawValue, orNull: false)
                item.field("preferred", button.preferred)
                for byte in item.finish() { writer.append(byte) }
            }
            writer.append(UInt8(ascii: "]"))
        }
    }
}
