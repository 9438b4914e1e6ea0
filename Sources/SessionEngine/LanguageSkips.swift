import AlertText

/// The judgements skipped for their language (rules.md, "Languages"), counted by rule (its
/// catalog index) and language (its subtag, packed as `EventLanguage.subtagKey`; 0 for
/// undetermined). Bounded: the first `maxLanguages` languages are counted each on its own, the
/// rest together as `other`. Allocated once; counting allocates nothing.
struct LanguageSkips {
    /// Languages counted on their own.
    static let maxLanguages = 64
    /// The name the languages past `maxLanguages` are counted under.
    static let other = "other"

    private let ruleCount: Int
    /// The languages seen, in the order first seen.
    private var languages: [UInt64] = []
    /// `ruleCount` rows of `maxLanguages + 1` counts (the last column: `other`).
    private var counts: [UInt64]

    /// No skips, for a catalog of `rules` rules.
    init(rules: Int) {
        ruleCount = max(rules, 1)
        languages.reserveCapacity(Self.maxLanguages)
        counts = Array(repeating: 0, count: ruleCount * (Self.maxLanguages + 1))
    }

    /// Counts one judgement of the rule at `rule` skipped for the language `language`.
    mutating func add(rule: Int, language: UInt64) {
        guard rule >= 0, rule < ruleCount else { return }
        var column = languages.firstIndex(of: language) ?? -1
        if column < 0 {
            if languages.count < Self.maxLanguages {
                languages.append(language)
                column = languages.count - 1
            } else {
                column = Self.maxLanguages
            }
        }
        counts[rule * (Self.maxLanguages + 1) + column] += 1
    }

    /// Every count above zero, by rule index, then language name (`und` for undetermined).
    var byRule: [Int: [String: UInt64]] {
        var result: [Int: [String: UInt64]] = [:]
        for rule in 0..<ruleCount {
            for column in 0...Self.maxLanguages {
                let count = counts[rule * (Self.maxLanguages + 1) + column]
                guard count > 0 else { continue }
                let name = column < languages.count ? EventLanguage.subtag(ofKey: languages[column]) : Self.other
                result[rule, default: [:]][name, default: 0] += count
            }
        }
        return result
    }

    /// The total of every count.
    var total: UInt64 { counts.reduce(0, +) }
}
