/// Text broken into lines at word boundaries.
enum WordWrap {
    /// `text`'s words in lines of at most `width` visible characters; a word longer than
    /// `width` has a line of its own, whole. No line when `text` is empty.
    static func lines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        var used = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let length = Terminal.visibleWidth(String(word))
            if used > 0 && used + 1 + length > width {
                lines.append(current)
                current = ""
                used = 0
            }
            if used > 0 {
                current += " "
                used += 1
            }
            current += word
            used += length
        }
        if used > 0 { lines.append(current) }
        return lines
    }
}
