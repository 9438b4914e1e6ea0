/// The top-level fields of wire format v1 (events.md, event.schema.json).
enum FieldKey: UInt8, CaseIterable, WireKey {
    case v, type, session, ts, seq, app
    case appVersion, os, device, sizeClass
    case control, label, destructive
    case task, state
    case id, title, message, buttons, textFields
    case button, via, inPopover, fromPopover, background
    case style, transition, unsavedChanges, confirmed, screen

    /// The bit of this field in a presence mask.
    @inline(__always) var bit: UInt32 { 1 << UInt32(rawValue) }

    static var isTopLevel: Bool { true }

    var name: StaticString {
        switch self {
        case .v: "v"
        case .type: "type"
        case .session: "session"
        case .ts: "ts"
        case .seq: "seq"
        case .app: "app"
        case .appVersion: "app_version"
        case .os: "os"
        case .device: "device"
        case .sizeClass: "size_class"
        case .control: "control"
        case .label: "label"
        case .destructive: "destructive"
        case .task: "task"
        case .state: "state"
        case .id: "id"
        case .title: "title"
        case .message: "message"
        case .buttons: "buttons"
        case .textFields: "text_fields"
        case .button: "button"
        case .via: "via"
        case .inPopover: "in_popover"
        case .fromPopover: "from_popover"
        case .background: "background"
        case .style: "style"
        case .transition: "transition"
        case .unsavedChanges: "unsaved_changes"
        case .confirmed: "confirmed"
        case .screen: "screen"
        }
    }

    @inline(__always)
    static func match(_ p: UnsafePointer<UInt8>, _ n: Int) -> FieldKey? {
        @inline(__always) func pick(_ key: FieldKey) -> FieldKey? { key.name.isSpelled(by: p, n) ? key : nil }
        switch n {
        case 1: return p[0] == UInt8(ascii: "v") ? .v : nil
        case 2:
            switch p[0] {
            case UInt8(ascii: "t"): return pick(.ts)
            case UInt8(ascii: "o"): return pick(.os)
            case UInt8(ascii: "i"): return pick(.id)
            default: return nil
            }
        case 3:
            switch p[0] {
            case UInt8(ascii: "s"): return pick(.seq)
            case UInt8(ascii: "a"): return pick(.app)
            case UInt8(ascii: "v"): return pick(.via)
            default: return nil
            }
        case 4:
            guard p[0] == UInt8(ascii: "t") else { return nil }
            return p[1] == UInt8(ascii: "y") ? pick(.type) : pick(.task)
        case 5:
            switch p[0] {
            case UInt8(ascii: "s"): return p[1] == UInt8(ascii: "t") && p[2] == UInt8(ascii: "a") ? pick(.state) : pick(.style)
            case UInt8(ascii: "l"): return pick(.label)
            case UInt8(ascii: "t"): return pick(.title)
            default: return nil
            }
        case 6:
            switch p[0] {
            case UInt8(ascii: "d"): return pick(.device)
            case UInt8(ascii: "s"): return pick(.screen)
            case UInt8(ascii: "b"): return pick(.button)
            default: return nil
            }
        case 7:
            switch p[0] {
            case UInt8(ascii: "s"): return pick(.session)
            case UInt8(ascii: "c"): return pick(.control)
            case UInt8(ascii: "m"): return pick(.message)
            case UInt8(ascii: "b"): return pick(.buttons)
            default: return nil
            }
        case 9: return pick(.confirmed)
        case 10:
            switch p[0] {
            case UInt8(ascii: "s"): return pick(.sizeClass)
            case UInt8(ascii: "b"): return pick(.background)
            case UInt8(ascii: "t"): return pick(.transition)
            case UInt8(ascii: "i"): return pick(.inPopover)
            default: return nil
            }
        case 11:
            switch p[0] {
            case UInt8(ascii: "d"): return pick(.destructive)
            case UInt8(ascii: "a"): return pick(.appVersion)
            case UInt8(ascii: "t"): return pick(.textFields)
            default: return nil
            }
        case 12: return pick(.fromPopover)
        case 15: return pick(.unsavedChanges)
        default: return nil
        }
    }
}
