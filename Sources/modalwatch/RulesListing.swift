/// What `modalwatch rules` prints for people, from the modules it loads or from a daemon's
/// `rules` reply alike: a header, one row per rule (id, module, severity, editions, languages,
/// parameters and their values), and under each row the rule's guideline (with `--verbose`, also when it
/// fires), wrapped at word boundaries to
/// the terminal's width (one line when stdout is not a terminal). When the terminal is too
/// narrow for a parameters column, the parameters go under the row too.
struct RulesListing {
    /// One rule.
    struct Row {
        let id: String
        let active: Bool
        let module: String
        let severity: String
        let editions: [String]
        /// The languages it judges (`any`, `en`, `localized`; `-` when its module declares none).
        var languages = "-"
        /// `name=value` of each parameter.
        let parameters: [String]
        /// What the guideline asks, in plain imperative language.
        let guideline: String
        /// When the rule fires (its summary), shown by `rules --verbose`; nil otherwise.
        let firesWhen: String?
    }

    /// The rules, in order.
    var rows: [Row] = []

    /// Indentation of the lines under a row.
    static let indent = 4
    /// The narrowest parameters column; narrower, the parameters go under the row.
    static let minimumParameterColumn = 20

    /// The lines; `width` is the terminal's (nil: no wrapping).
    func lines(width: Int?) -> [String] {
        let names = rows.map { $0.active ? $0.id : "\($0.id) (off)" }
        let fixed = [
            max(4, names.map(Terminal.visibleWidth).max() ?? 0), max(6, rows.map(\.module.count).max() ?? 0), 8,
            max(8, rows.map { $0.editions.joined(separator: ",").count }.max() ?? 0),
            max(9, rows.map(\.languages.count).max() ?? 0),
        ].reduce(0) { $0 + $1 + 2 }
        let parameterRoom = width.map { $0 - fixed }
        let parametersBelow = parameterRoom.map { $0 < Self.minimumParameterColumn } ?? false
        var table = TextTable(
            ["RULE", "MODULE", "SEVERITY", "EDITIONS", "LANGUAGES"] + (parametersBelow ? [] : ["PARAMETERS"])
        )
        var below: [Int: [String]] = [:]
        let room = width.map { max(Self.minimumParameterColumn, $0 - Self.indent) }
        func wrap(_ text: String, _ columns: Int?) -> [String] {
            columns.map { WordWrap.lines(text, width: $0) } ?? [text]
        }
        for (row, name) in zip(rows, names) {
            let parameters = row.parameters.joined(separator: " ")
            var cells = [
                row.active ? row.id : Terminal.paint(name, "2"), row.module,
                Terminal.severity(row.severity, row.severity),
                row.editions.joined(separator: ","), row.languages,
            ]
            var under: [String] = []
            if parametersBelow {
                if !parameters.isEmpty { under += wrap("parameters: " + parameters, room) }
            } else {
                let wrapped = parameters.isEmpty ? ["-"] : wrap(parameters, parameterRoom)
                cells.append(wrapped.first ?? "-")
                table.add(cells)
                for more in wrapped.dropFirst() { table.add(["", "", "", "", "", more]) }
            }
            if parametersBelow { table.add(cells) }
            below[table.rows.count - 1] =
                under + wrap(row.guideline, room) + (row.firesWhen.map { wrap("fires when: " + $0, room) } ?? [])
        }
        let tableLines = table.lines(width: width)
        var out = [tableLines[0]]
        let indent = String(repeating: " ", count: Self.indent)
        for (index, line) in tableLines.dropFirst().enumerated() {
            out.append(line)
            out += (below[index] ?? []).map { indent + $0 }
        }
        return out
    }
}
