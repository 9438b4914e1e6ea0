import Foundation
import RuleHost

/// The rule tables of spec/rules.md, parsed: what each rule's metadata must say.
struct RuleCatalogueSpec {
    struct Entry: Equatable {
        var id: String
        var module: String
        var severity: String
        var editions: [String]
        /// `any`, `en` or `localized` (rules.md, "Languages").
        var languages: String
        /// Parameter name → default, durations in ms.
        var parameters: [String: Int64]
    }

    var entries: [Entry] = []

    /// Parses the `## Module `name`` tables of rules.md.
    init(markdown: String) {
        var module: String?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## Module `") {
                module = line.split(separator: "`").dropFirst().first.map(String.init)
                continue
            }
            if line.hasPrefix("## ") { module = nil }
            guard let module, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 7 else { continue }
            let id = cells[1].replacingOccurrences(of: "`", with: "")
            let editions: [String] =
                cells[3] == "all"
                ? ["2009", "ios7", "current"]
                : cells[3].split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "")
                }
            entries.append(
                Entry(
                    id: id,
                    module: module,
                    severity: cells[2],
                    editions: editions,
                    languages: cells[4].replacingOccurrences(of: "`", with: ""),
                    parameters: Self.parameters(cells[5])
                )
            )
        }
    }

    /// "`limit` 3, `window` 600 s" → ["limit": 3, "window": 600000].
    static func parameters(_ cell: String) -> [String: Int64] {
        var result: [String: Int64] = [:]
        for part in cell.split(separator: ",") {
            let words = part.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            guard words.count >= 2, words[0].hasPrefix("`"), let value = Int64(words[1]) else { continue }
            let name = words[0].replacingOccurrences(of: "`", with: "")
            let unit = words.count >= 3 ? words[2] : ""
            result[name] = unit == "s" ? value * 1000 : value
        }
        return result
    }
}
