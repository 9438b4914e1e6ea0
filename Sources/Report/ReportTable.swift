/// A data table beside a chart: the same numbers, readable by screen readers and by tests
/// (`data-table` names the table, `data-key` each row, `data-col` each cell, `data-value` a number).
struct ReportTable {
    /// A cell: text, a number, or HTML with the plain value it stands for.
    enum Cell {
        case text(String)
        case number(Int)
        case html(String, value: String)
    }

    let id: String
    let caption: String
    /// Column keys and headings.
    let columns: [(key: String, title: String)]
    private(set) var rows: [(key: String, cells: [Cell])] = []

    init(id: String, caption: String, columns: [(key: String, title: String)]) {
        self.id = id
        self.caption = caption
        self.columns = columns
    }

    mutating func add(key: String, _ cells: [Cell]) {
        rows.append((key, cells))
    }

    /// The table, in a wrapper that scrolls sideways on narrow screens.
    func render(extraAttributes: String = "") -> String {
        var html =
            "<div class=\"table-wrap\"><table data-table=\"\(HTML.escape(id))\"\(extraAttributes)><caption>\(HTML.escape(caption))</caption><thead><tr>"
        for (i, column) in columns.enumerated() {
            let numeric =
                rows.first.map {
                    i < $0.cells.count
                        && {
                            if case .number = $0.cells[i] { return true }
                            return false
                        }($0)
                } ?? false
            html += "<th scope=\"col\"\(numeric ? " class=\"num\"" : "")>\(HTML.escape(column.title))</th>"
        }
        html += "</tr></thead><tbody>"
        for row in rows {
            html += "<tr data-key=\"\(HTML.escape(row.key))\">"
            for (i, cell) in row.cells.enumerated() {
                let col = i < columns.count ? columns[i].key : "c\(i)"
                let tag = i == 0 ? "th scope=\"row\"" : "td"
                let close = i == 0 ? "th" : "td"
                switch cell {
                case .text(let text):
                    html +=
                        "<\(tag) data-col=\"\(col)\" data-value=\"\(HTML.escape(text))\">\(HTML.escape(text))</\(close)>"
                case .number(let value):
                    html +=
                        "<\(tag) class=\"num\" data-col=\"\(col)\" data-value=\"\(value)\">\(HTML.number(value))</\(close)>"
                case .html(let content, let value):
                    html += "<\(tag) data-col=\"\(col)\" data-value=\"\(HTML.escape(value))\">\(content)</\(close)>"
                }
            }
            html += "</tr>"
        }
        if rows.isEmpty { html += "<tr><td colspan=\"\(columns.count)\">none</td></tr>" }
        return html + "</tbody></table></div>"
    }
}
