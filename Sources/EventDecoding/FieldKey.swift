/// The top-level fields of wire format v1 (events.md, event.schema.json).
enum FieldKey: UInt8, CaseIterable, WireKey {
    case v, type, session, ts, seq, app
    case appVersion, os, device, sizeClass
    case control, label, destructive
    case task, state
    case id, title, message, buttons, textFields
    case button, via, inPopover, fromPopover, background
    case style, transition, unsavedChanges, confirmed, screen
    case locale

    /// The bit of this field in a presence mask.
    @inline(__always) var bit: UInt32 { 1 &<< UInt32(rawValue) }

    static var isTopLevel: Bool { true }
    static var guessBase: Int { 0 }
    static var guessFirst: Int { KeyGuess.firstFieldMember }

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
        case .locale: "locale"
        }
    }

    /// The field `key` names: a jump on the length, then one or two word compares (the words are the
    /// names' bytes, little-endian; `FieldKeyTests` checks them against `name`).
    @inline(__always)
    static func match(_ key: KeyWords) -> FieldKey? {
        let w0 = key.w0
        let w1 = key.w1
        switch key.count {
        case 1: return w0 == 0x76 ? .v : nil
        case 2:
            switch w0 {
            case 0x7374: return .ts
            case 0x736f: return .os
            case 0x6469: return .id
            default: return nil
            }
        case 3:
            switch w0 {
            case 0x71_6573: return .seq
            case 0x70_7061: return .app
            case 0x61_6976: return .via
            default: return nil
            }
        case 4:
            switch w0 {
            case 0x6570_7974: return .type
            case 0x6b73_6174: return .task
            default: return nil
            }
        case 5:
            switch w0 {
            case 0x6c_6562_616c: return .label
            case 0x65_7461_7473: return .state
            case 0x65_6c74_6974: return .title
            case 0x65_6c79_7473: return .style
            default: return nil
            }
        case 6:
            switch w0 {
            case 0x6563_6976_6564: return .device
            case 0x6e6f_7474_7562: return .button
            case 0x6e65_6572_6373: return .screen
            case 0x656c_6163_6f6c: return .locale
            default: return nil
            }
        case 7:
            switch w0 {
            case 0x6e_6f69_7373_6573: return .session
            case 0x6c_6f72_746e_6f63: return .control
            case 0x65_6761_7373_656d: return .message
            case 0x73_6e6f_7474_7562: return .buttons
            default: return nil
            }
        case 9: return w0 == 0x656d_7269_666e_6f63 && w1 == 0x64 ? .confirmed : nil
        case 10:
            switch (w0, w1) {
            case (0x616c_635f_657a_6973, 0x7373): return .sizeClass
            case (0x756f_7267_6b63_6162, 0x646e): return .background
            case (0x6974_6973_6e61_7274, 0x6e6f): return .transition
            case (0x766f_706f_705f_6e69, 0x7265): return .inPopover
            default: return nil
            }
        case 11:
            switch (w0, w1) {
            case (0x7463_7572_7473_6564, 0x65_7669): return .destructive
            case (0x7372_6576_5f70_7061, 0x6e_6f69): return .appVersion
            case (0x6569_665f_7478_6574, 0x73_646c): return .textFields
            default: return nil
            }
        case 12: return w0 == 0x706f_705f_6d6f_7266 && w1 == 0x7265_766f ? .fromPopover : nil
        case 15: return w0 == 0x5f64_6576_6173_6e75 && w1 == 0x73_6567_6e61_6863 ? .unsavedChanges : nil
        default: return nil
        }
    }
}
