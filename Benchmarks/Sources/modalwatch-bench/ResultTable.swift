import Foundation

/// Everything one bench run found: the figures, how they were made, and on what;
/// printed as one aligned table and written as JSON and Markdown.
struct ResultTable {
    /// The table's lines, in order.
    var figures: [Figure] = []
    /// How the run was made and on what: machine, command, date, options (in order).
    var context: [(String, String)] = []
    /// Supporting numbers per measurement (in order), for the JSON file.
    var details: [(String, [(String, String)])] = []
    /// The performance targets, each with its figure and whether it is met (`name` is the
    /// target, `display` the figure, `target` the threshold).
    var targets: [Figure] = []

    /// Adds a line.
    mutating func add(_ figure: Figure) {
        figures.append(figure)
    }

    /// The aligned text table, then the targets table.
    func text() -> String {
        var out = Self.aligned(
            ["figure", "value", "target", "met?"],
            figures.map { [$0.name, $0.display, $0.target, $0.metText] }
        )
        if !targets.isEmpty {
            out +=
                "\n\nTargets\n"
                + Self.aligned(
                    ["target", "threshold", "figure", "met?"],
                    targets.map { [$0.name, $0.target, $0.display, $0.metText] }
                )
        }
        return out
    }

    private static func aligned(_ header: [String], _ rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                cell + String(repeating: " ", count: widths[i] - cell.count)
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        var out = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        out += rows.map(line)
        return out.joined(separator: "\n")
    }

    /// The figures file (`bench/results/targets.md`): the Targets table, with the command, the
    /// toolchain and the machine of the run; the docs link to it rather than quote its figures.
    func targetsMarkdown() -> String {
        let shown: Set = [
            "command", "toolchain", "cpu", "memory", "kernel", "libzmq", "stream", "runs per throughput figure",
            "load average at start", "load average at end",
        ]
        var out = "# modalwatch's figures\n\n"
        out +=
            "Written by `modalwatch-bench` (docs/PERFORMANCE.md says what each target is, how it is measured and what bounds it). "
        out += "A target its run did not measure says which `--only` does.\n\n"
        for (key, value) in context where shown.contains(key) { out += "- **\(key)**: \(value)\n" }
        out += "\n| target | threshold | figure | met? |\n|---|---|---|---|\n"
        for target in targets {
            out += "| \(target.name) | \(target.target) | \(target.display) | \(target.metText) |\n"
        }
        return out
    }

    /// The Markdown page: context, then the table.
    func markdown() -> String {
        var out = "# modalwatch-bench results\n\n"
        for (key, value) in context { out += "- **\(key)**: \(value)\n" }
        out += "\n| figure | value | target | met? |\n|---|---|---|---|\n"
        for figure in figures {
            out += "| \(figure.name) | \(figure.display) | \(figure.target) | \(figure.metText) |\n"
        }
        if !targets.isEmpty {
            out += "\n## Targets\n\n| target | threshold | figure | met? |\n|---|---|---|---|\n"
            for target in targets {
                out += "| \(target.name) | \(target.target) | \(target.display) | \(target.metText) |\n"
            }
        }
        if !details.isEmpty {
            out += "\n## Details\n\n"
            for (section, pairs) in details {
                out += "- \(section): " + pairs.map { "\($0.0)=\($0.1)" }.joined(separator: ", ") + "\n"
            }
        }
        return out
    }

    /// The JSON document: `context`, `figures` (key, name, value, unit, display, target, met), `details`.
    func json() -> String {
        var out = "{\n  \"context\": {"
        out += context.map { "\n    \(Self.quote($0.0)): \(Self.quote($0.1))" }.joined(separator: ",")
        out += "\n  },\n  \"figures\": ["
        out += figures.map { f in
            var fields = ["\"key\": \(Self.quote(f.key))", "\"name\": \(Self.quote(f.name))"]
            fields.append("\"value\": " + (f.value.map(Self.number) ?? "null"))
            fields.append("\"unit\": \(Self.quote(f.unit))")
            fields.append("\"display\": \(Self.quote(f.display))")
            fields.append("\"target\": " + (f.target.isEmpty ? "null" : Self.quote(f.target)))
            fields.append("\"met\": " + (f.met.map { $0 ? "true" : "false" } ?? "null"))
            return "\n    {" + fields.joined(separator: ", ") + "}"
        }.joined(separator: ",")
        out += "\n  ],\n  \"targets\": ["
        out += targets.map { t in
            "\n    {\"key\": \(Self.quote(t.key)), \"target\": \(Self.quote(t.name)), \"threshold\": \(Self.quote(t.target)), "
                + "\"value\": " + (t.value.map(Self.number) ?? "null") + ", \"unit\": \(Self.quote(t.unit)), "
                + "\"figure\": \(Self.quote(t.display)), \"met\": " + (t.met.map { $0 ? "true" : "false" } ?? "null")
                + "}"
        }.joined(separator: ",")
        out += "\n  ],\n  \"details\": {"
        out += details.map { section, pairs in
            "\n    \(Self.quote(section)): {"
                + pairs.map { "\(Self.quote($0.0)): \(Self.jsonValue($0.1))" }.joined(separator: ", ") + "}"
        }.joined(separator: ",")
        out += "\n  }\n}\n"
        return out
    }

    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// A detail that reads as a number is written as one.
    private static func jsonValue(_ text: String) -> String {
        if let value = Double(text), value.isFinite, text.first != "+", !text.hasPrefix(".") { return text }
        return quote(text)
    }

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
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
