import Foundation
import Glibc

/// The terminal as a full-screen program uses it: no echo, keys one at a time, the
/// alternate screen, no cursor. `leave()` (also on deinit) puts everything back.
final class RawTerminal {
    private var saved = termios()
    private(set) var active = false

    /// Switches stdin to raw keys and stdout to the alternate screen.
    func enter() {
        guard !active else { return }
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[H")
        active = true
    }

    /// Restores the screen, the cursor and the terminal's modes.
    func leave() {
        guard active else { return }
        Self.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        active = false
    }

    deinit { leave() }

    /// Writes `text` to stdout at once, all of it.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            offset += written
        }
    }
}
