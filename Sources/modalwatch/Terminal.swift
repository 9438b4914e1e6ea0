import Foundation
import Glibc

/// Writing for people: stderr lines, and colour only on a terminal without NO_COLOR.
enum Terminal {
    /// One line to stderr, prefixed with the program name.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("modalwatch: \(message)\n".utf8))
    }

    /// Whether stdout is a terminal that may get colour.
    static var colorEnabled: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// `text` in an ANSI colour when colour is on.
    static func paint(_ text: String, _ code: String) -> String {
        colorEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
