import Foundation
import Glibc

/// Writing for people: stderr lines, colour only on a terminal without NO_COLOR, the window's size.
enum Terminal {
    /// One line to stderr, prefixed with the program name.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("modalwatch: \(message)\n".utf8))
    }

    /// Whether `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Whether stdout is a terminal that may get colour: never when NO_COLOR is set, whatever its value.
    static var colorEnabled: Bool {
        isTerminal(STDOUT_FILENO) && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// `text` in an ANSI colour (SGR `code`) when colour is on.
    static func paint(_ text: String, _ code: String) -> String {
        colorEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
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

    /// The characters a person sees of `text`: ANSI escape sequences take no room.
    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else if scalar.properties.generalCategory != .nonspacingMark {
                width += 1
            }
        }
        return width
    }

    /// `text` cut to `width` visible characters (escape sequences kept, colour reset when cut).
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
            } else if scalar == "\u{1B}" {
                inEscape = true
                sawEscape = true
                out.unicodeScalars.append(scalar)
            } else {
                if used >= width { break }
                out.unicodeScalars.append(scalar)
                if scalar.properties.generalCategory != .nonspacingMark { used += 1 }
            }
        }
        return sawEscape ? out + "\u{1B}[0m" : out
    }

    /// `text` padded with spaces to `width` visible characters.
    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - visibleWidth(text)))
        return right ? fill + text : text + fill
    }
}
