import ByteBasics
import ModalwatchABI
import SessionEngine

/// A fuzz input read as a program of at most `maxSteps` events: each step takes a few bytes that
/// choose the event's type, session, app, presentation id and texts, and how its event time and its
/// arrival (wall-clock) time move: a little or a lot forward, backward, or to an extreme (0, the
/// end of year 9999, one past it, ±2^63, -1, just past the idle timeout). Past the input's end
/// every choice is 0.
struct TimelineProgram {
    /// One event: its JSON line, and what the program chose for it.
    struct Step {
        var json: String
        var session: String
        var app: String?
        var ts: Int64
        var observed: Int64
    }

    static let maxSteps = 256
    private static let types = [
        "session.start", "session.end", "app.background", "app.foreground", "user.action", "task.progress",
        "alert.presented", "alert.dismissed", "sheet.presented", "sheet.dismissed", "modal.presented",
        "modal.dismissed", "popover.presented", "popover.dismissed", "nav.push", "nav.pop",
    ]
    /// Bundle ids, and ids that would break a topic (`/`, space, C0, DEL, C1).
    private static let apps = [
        "com.example.mail", "com.victim", "com.victim/alert-title-single-word/x", "com.a b",
        "com.a\u{7}b", "com.a\u{7F}", "com.a\u{85}b", "/", "com.exämple",
    ]
    private static let titles: [String?] = [nil, "Error", "Unable to Save the Document", "Delete?", "", "ok"]
    private static let buttons = [
        #"[{"title":"OK"}]"#, #"[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]"#,
        #"[]"#, #"[{"title":"OK","preferred":true},{"title":"Later"},{"title":"Never"}]"#,
    ]

    private let bytes: [UInt8]
    private var position = 0
    private var steps = 0
    private var ts: Int64 = 1_732_290_000_000
    private var observed: Int64 = 1_732_290_000_000

    init(_ input: UnsafeRawBufferPointer) {
        bytes = Array(input)
    }

    /// The next event, or nil at the end of the input (or past `maxSteps`).
    mutating func next() -> Step? {
        guard steps < Self.maxSteps, position < bytes.count else { return nil }
        steps += 1
        let op = byte()
        let type = Self.types[Int(op >> 2) % Self.types.count]
        let session = "S\(op & 3)"
        ts = time(after: ts)
        observed = time(after: observed)
        let choice = byte()
        var app: String?
        if type == "session.start" || choice & 0x80 != 0 { app = Self.apps[Int(choice & 0x7F) % Self.apps.count] }
        var fields = [#""v":1"#, #""type":"\#(type)""#, #""session":"\#(session)""#, #""ts":\#(ts)"#]
        if let app { fields.append(#""app":"# + Self.quoted(app)) }
        if choice & 0x40 != 0 { fields.append(#""seq":\#(steps)"#) }
        let id = "p\(choice & 3)"
        let detail = byte()
        switch type {
        case "alert.presented", "sheet.presented":
            fields.append(#""id":"\#(id)""#)
            if let title = Self.titles[Int(detail) % Self.titles.count] {
                fields.append(#""title":"# + Self.quoted(title))
            }
            fields.append(#""buttons":"# + Self.buttons[Int(detail >> 4) % Self.buttons.count])
        case "modal.presented":
            fields.append(#""id":"\#(id)""#)
            if detail & 1 != 0 { fields.append(#""style":"full_screen""#) }
        case "alert.dismissed", "sheet.dismissed", "modal.dismissed":
            fields.append(#""id":"\#(id)""#)
            fields.append(#""button":\#(detail & 3)"#)
            if detail & 4 != 0 { fields.append(#""via":"background""#) }
        case "popover.presented", "popover.dismissed":
            fields.append(#""id":"\#(id)""#)
        case "user.action":
            fields.append(#""control":"button","label":"Delete""#)
            if detail & 1 != 0 { fields.append(#""destructive":true"#) }
        case "task.progress":
            fields.append(
                #""task":"t\#(detail & 1)","state":"\#(["started", "progress", "finished", "failed", "cancelled"][Int(detail) % 5])""#
            )
        case "nav.push", "nav.pop":
            fields.append(#""screen":"s\#(detail & 3)""#)
        default:
            break
        }
        return Step(
            json: "{" + fields.joined(separator: ",") + "}",
            session: session,
            app: app,
            ts: ts,
            observed: observed
        )
    }

    /// A time the program chooses (the `now` of a reply or of an idle release).
    mutating func time() -> Int64 { time(after: observed) }

    /// A number below `n` the program chooses (0 past the input's end).
    mutating func index(_ n: Int) -> Int { Int(byte()) % max(1, n) }

    /// Whether the engine releases idle sessions after this step.
    mutating func wantsIdleRelease() -> Bool { byte() & 1 != 0 }

    /// Whether a session's snapshot gets the program's extreme times before its reply.
    mutating func wantsExtremeSnapshot() -> Bool { byte() & 1 != 0 }

    /// Whether `app` may be in a topic: no `/`, space or control character (nil: no app, fine).
    static func isTopicSafe(_ app: String?) -> Bool {
        guard let app else { return true }
        return !app.unicodeScalars.contains { $0 == "/" || $0 == " " || $0.value < 0x20 || (0x7F...0x9F) ~= $0.value }
    }

    /// An `mw_str` as a String, nil for NULL.
    static func string(_ value: mw_str) -> String? {
        guard let p = value.ptr else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: value.len), as: UTF8.self)
    }

    private mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next time after `current`: a step forward or back, or a jump to an extreme.
    private mutating func time(after current: Int64) -> Int64 {
        let how = byte()
        let amount = Int64(byte())
        switch how % 14 {
        case 0, 1: return current.addingSaturated(amount * 10)
        case 2: return current.addingSaturated(amount * 60_000)
        case 3: return current.addingSaturated(amount * 3_600_000)
        case 4: return current.addingSaturated(amount * 86_400_000)
        case 5: return current.addingSaturated(-amount * 100)
        case 6: return 0
        case 7: return EventTime.maxMs
        case 8: return EventTime.maxMs + 1
        case 9: return .max
        case 10: return .min
        case 11: return -1
        case 12: return current.addingSaturated(30 * 60_000 + 1)
        default: return current.addingSaturated(-amount * 86_400_000)
        }
    }

    /// `text` as a JSON string: `"`, `\` and control characters escaped.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F) ~= scalar.value {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
