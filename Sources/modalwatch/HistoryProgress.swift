import Foundation
import Glibc

/// Progress of `history export` and `history import` on stderr. On a terminal, one line
/// rewritten in place, at most five times a second; elsewhere (a pipe, a file, the journal), or
/// when the rows themselves go to that terminal, one line every `every` rows, so that a log of a
/// long run shows it moving and a short one stays quiet. `finish` clears the line on a terminal
/// and writes the summary, always.
final class HistoryProgress {
    /// Rows between two lines when stderr is not a terminal.
    static let every = 100_000

    private let isTerminal: Bool

    /// Progress on stderr; `outputOnTerminal`: what is exported is written to the terminal too,
    /// where a line rewritten in place would mix with it.
    init(outputOnTerminal: Bool = false) {
        isTerminal = isatty(STDERR_FILENO) == 1 && !outputOnTerminal
    }
    private var lastDrawn: Double = 0
    private var nextLine = HistoryProgress.every
    private var drawn = false

    /// Tells that `rows` rows are done, `text` saying what of them.
    func update(rows: Int, _ text: @autoclosure () -> String) {
        if isTerminal {
            let now = Date().timeIntervalSince1970
            guard now - lastDrawn >= 0.2 else { return }
            lastDrawn = now
            write("\r\u{1B}[K" + Terminal.visible(text()))
            drawn = true
        } else if rows >= nextLine {
            while nextLine <= rows { nextLine += Self.every }
            write(Terminal.visible("modalwatch: " + text()) + "\n")
        }
    }

    /// Clears the progress line (on a terminal), then writes `summary` as a line.
    func finish(_ summary: String) {
        clear()
        write(Terminal.visible("modalwatch: " + summary) + "\n")
    }

    /// Clears the progress line (on a terminal), before an error's line.
    func clear() {
        if drawn { write("\r\u{1B}[K") }
        drawn = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
