import ByteBasics
import Foundation
import Posix

/// The quarantine in the state directory (`quarantine.json`): a JSON array of the rules taken
/// out of service after a crash or hang in them (`RuleFaultGuard.Quarantined`), written whole
/// on each change and read back at the start.
///
/// Bounded where it is read: the file at most `maxBytes` (read up to that and a byte, never
/// whole), else refused by its `size`; JSON that is not such an array (an integer past Int64
/// included) refused as a whole by its `json`; an entry whose `since` is outside
/// `EventTime.minMs...EventTime.maxMs` refused by itself, the others kept.
enum QuarantineFile {
    /// The most bytes the file may hold: an entry is a few hundred bytes, one a rule in quarantine.
    static let maxBytes = 4 << 20

    /// What the file holds.
    struct Contents: Equatable {
        /// The entries in bounds, in the file's order.
        var entries: [RuleFaultGuard.Quarantined]
        /// The entries refused, each with its refusal.
        var refused: [Refused]
    }

    /// An entry refused by one of its fields.
    struct Refused: Equatable {
        /// The entry as read.
        var entry: RuleFaultGuard.Quarantined
        /// The field and why.
        var refusal: StateFileRefusal
    }

    /// The quarantine at `path`, nil when there is none; refused as a whole when it is larger
    /// than `maxBytes` or is not the quarantine's JSON.
    static func read(_ path: String) throws(StateFileRefusal) -> Contents? {
        guard let file = try ReadBackFile.open(path) else { return nil }
        let bytes = try file.bytes(at: 0, count: maxBytes + 1)
        guard bytes.count <= maxBytes else {
            throw StateFileRefusal(
                path,
                field: "size",
                "\(file.size) bytes, more than the \(maxBytes) a quarantine may hold"
            )
        }
        let decoded: [RuleFaultGuard.Quarantined]
        do {
            decoded = try JSONDecoder().decode([RuleFaultGuard.Quarantined].self, from: Data(bytes))
        } catch {
            throw StateFileRefusal(path, field: "json", "not an array of quarantined rules: \(oneLine(error))")
        }
        var contents = Contents(entries: [], refused: [])
        let range = EventTime.minMs...EventTime.maxMs
        for entry in decoded {
            if range.contains(entry.since) {
                contents.entries.append(entry)
            } else {
                contents.refused.append(
                    Refused(
                        entry: entry,
                        refusal: StateFileRefusal(
                            path,
                            field: "since",
                            "\(entry.since) (rule \(entry.rule)) is outside \(range.lowerBound)...\(range.upperBound) ms (1970 to year 9999)"
                        )
                    )
                )
            }
        }
        return contents
    }

    /// The file's bytes for `entries`.
    static func encoded(_ entries: [RuleFaultGuard.Quarantined]) throws -> [UInt8] {
        [UInt8](try JSONEncoder().encode(entries))
    }

    /// `error` on one line, at most 200 characters.
    private static func oneLine(_ error: any Error) -> String {
        let text = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
