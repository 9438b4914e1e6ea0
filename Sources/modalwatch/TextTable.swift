/// An aligned table for people: a header row, columns as wide as their widest cell,
/// numbers aligned right. Cells may carry colour; widths count only what is seen.
struct TextTable {
    /// Column titles.
    var headers: [String]
    /// Indices of the columns aligned right (numbers).
    var rightAligned: Set<Int> = []
    /// The rows, one cell per column.
    var rows: [[String]] = []

    init(_ headers: [String], rightAligned: Set<Int> = []) {
        self.headers = headers
        self.rightAligned = rightAligned
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    /// The lines: header, then rows; each cut to `width` visible characters when given.
    func lines(width: Int? = nil, gap: Int = 2) -> [String] {
        var widths = headers.map(Terminal.visibleWidth)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], Terminal.visibleWidth(cell))
            }
        }
        let spacer = String(repeating: " ", count: gap)
        func line(_ cells: [String], header: Bool) -> String {
            var parts: [String] = []
            for (i, cell) in cells.enumerated() where i < widths.count {
                let last = i == widths.count - 1
                let text = header ? Terminal.paint(cell, "1") : cell
                parts.append(
                    last && !rightAligned.contains(i)
                        ? text : Terminal.pad(text, widths[i], right: rightAligned.contains(i))
                )
            }
            let joined = parts.joined(separator: spacer)
            return width.map { Terminal.clip(joined, to: $0) } ?? joined
        }
        return [line(headers, header: true)] + rows.map { line($0, header: false) }
    }
}
