import Foundation
import Glibc
import Posix

/// Writing for people: stdout and stderr lines, colour only on a terminal without NO_COLOR, the
/// window's size. Every line for people goes through ``visible(_:)`` on its way out: what the
/// daemon, an event or a module wrote can never put a control character on the operator's
/// terminal. Colour is marked by ``paint(_:_:)`` with ``colourMark`` and becomes an SGR
/// sequence only there, after the escaping.
enum Terminal {
    /// One line to stderr, prefixed with the program name; control characters shown. When stderr
    /// is the journal (the units' `ExecReload=`), at priority `err`.
    static func error(_ message: String) {
        let priority = Posix.stderrIsJournal(environment: ProcessInfo.processInfo.environment) ? "<3>" : ""
        FileHandle.standardError.write(Data((priority + visible("modalwatch: \(message)") + "\n").utf8))
    }

    /// One line to stderr at the journal's `crit` priority when stderr is the journal (a service's
    /// reason to stop, which `journalctl -p err` shows), else as `error(_:)` writes it.
    static func critical(_ message: String) {
        let priority = Posix.stderrIsJournal(environment: ProcessInfo.processInfo.environment) ? "<2>" : ""
        FileHandle.standardError.write(Data((priority + visible("modalwatch: \(message)") + "\n").utf8))
    }

    /// One line to stdout; control characters shown.
    static func print(_ line: String) {
        Swift.print(visible(line))
    }

    /// Starts a colour sequence in text made by ``paint(_:_:)``: U+F8FF and eight private-use
    /// characters drawn at start (64 bits), so that no text from outside spells it. ``visible(_:)``
    /// turns it into ESC; everything else that is a control character is shown as `\u{…}`.
    static let colourMark: String = {
        var mark = "\u{F8FF}"
        var random = UInt64.random(in: 0...UInt64.max)
        for _ in 0..<8 {
            mark.unicodeScalars.append(Unicode.Scalar(0xE000 + UInt32(random & 0xFF))!)
            random >>= 8
        }
        return mark
    }()

    /// `text` for a terminal: every control character (C0 including tab and newline, DEL, C1) and
    /// every bidirectional formatting character (U+061C, U+200E–U+200F, U+202A–U+202E,
    /// U+2066–U+2069) and line or paragraph separator (U+2028, U+2029) written as `\u{HEX}`;
    /// the colour marks of ``paint(_:_:)`` become their SGR sequences. The one place where
    /// outside text meets the terminal: every command's text output passes here.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) || $0 == "\u{F8FF}" }) else { return text }
        let mark = colourMark
        var out = String.UnicodeScalarView()
        var rest = Substring(text)
        while let scalar = rest.unicodeScalars.first {
            if scalar == "\u{F8FF}", rest.hasPrefix(mark) {
                out.append("\u{1B}")
                rest = rest.dropFirst(mark.count)
                continue
            }
            if needsEscape(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
            rest = Substring(rest.unicodeScalars.dropFirst())
        }
        return String(out)
    }

    /// Whether `scalar` is shown escaped by ``visible(_:)`` (and by ``JSONOutput/escaped(_:)``).
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Whether stdout is a terminal that may get colour: never when NO_COLOR is set, whatever its value.
    static var colorEnabled: Bool {
        isTerminal(STDOUT_FILENO) && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// `text` in an ANSI colour (SGR `code`) when colour is on: marked with ``colourMark``,
    /// which ``visible(_:)`` turns into the escape sequence.
    static func paint(_ text: String, _ code: String) -> String {
        colorEnabled ? "\(colourMark)[\(code)m\(text)\(colourMark)[0m" : text
    }

    /// `text` in the colour of a severity name (error red, warning yellow, info cyan).
    static func severity(_ text: String, _ severity: String) -> String {
        switch severity {
        case "error": return paint(text, "31")
        case "warning": return paint(text, "33")
        case "info": return paint(text, "36")
        default: return text
        }
    }

    /// Rows and columns of the terminal on `fd`, if it is one.
    static func size(_ fd: Int32 = STDOUT_FILENO) -> (rows: Int, columns: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// The characters a person sees of `text`: colour marks take no room.
    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
            } else if scalar == "\u{F8FF}" {
                inEscape = true
            } else if scalar.properties.generalCategory != .nonspacingMark {
                width += 1
            }
        }
        return width
    }

    /// `text` cut to `width` visible characters (colour marks kept, colour reset when cut).
    static func clip(_ text: String, to width: Int) -> String {
        guard visibleWidth(text) > width else { return text }
        var out = ""
        var used = 0
        var inEscape = false
        var sawEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                out.unicodeScalars.append(scalar)
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
            } else if scalar == "\u{F8FF}" {
                inEscape = true
                sawEscape = true
                out.unicodeScalars.append(scalar)
            } else {
                if used >= width { break }
                out.unicodeScalars.append(scalar)
                if scalar.properties.generalCategory != .nonspacingMark { used += 1 }
            }
        }
        return sawEscape ? out + "\(colourMark)[0m" : out
    }

    /// `text` padded with spaces to `width` visible characters.
    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - visibleWidth(text)))
        return right ? fill + text : text + fill
    }
}
