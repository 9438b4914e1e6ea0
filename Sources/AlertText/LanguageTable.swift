/// A table of entries by language (`StandardTitles.table`, `QuotationMarks.table`), looked up by a
/// BCP 47 tag as `LanguageLookup.candidates` says.
struct LanguageTable<Entry: Sendable>: Sendable {
    /// The entries, in the table's order.
    let entries: [Entry]
    /// The position of each entry, by its language lowercased.
    private let index: [String: Int]
    /// The position of each language written with one entry (no `de-…` entry besides `de`), by
    /// its subtag: found without allocating (the subtag is a small string, kept inline).
    private let singleEntry: [String: Int]

    /// The table of `entries`, each written for the language `language` gives.
    init(_ entries: [Entry], language: (Entry) -> String) {
        self.entries = entries
        let languages = entries.map { language($0).lowercased() }
        var index: [String: Int] = [:]
        for (position, tag) in languages.enumerated() { index[tag] = position }
        let subtags = languages.map { $0.split(separator: "-")[0] }
        var counts: [Substring: Int] = [:]
        for subtag in subtags { counts[subtag, default: 0] += 1 }
        var singleEntry: [String: Int] = [:]
        for (position, subtag) in subtags.enumerated() where counts[subtag] == 1 && languages[position] == subtag {
            singleEntry[String(subtag)] = position
        }
        self.index = index
        self.singleEntry = singleEntry
    }

    /// The entry for `tag`: the first of its `LanguageLookup.candidates` the table has.
    func entry(for tag: String) -> Entry? {
        for candidate in LanguageLookup.candidates(tag) {
            if let position = index[candidate] { return entries[position] }
        }
        return nil
    }

    /// The entry for a tag's UTF-8 bytes: a language with one entry by its first subtag, without
    /// allocating; any other through `entry(for:)`, which allocates.
    func entry(forBytes bytes: UnsafeBufferPointer<UInt8>) -> Entry? {
        let end = bytes.firstIndex(of: 0x2D) ?? bytes.count
        let subtag = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
        if let position = singleEntry[subtag] { return entries[position] }
        return entry(for: String(decoding: bytes, as: UTF8.self))
    }
}
