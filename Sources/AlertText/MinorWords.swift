/// The minor words of title-style capitalization: the words that stay lowercase
/// unless they are the first word (rules.md, "Title-style capitalization"; the
/// iOS 7 HIG's definition).
///
/// - Articles: `a`, `an`, `the`.
/// - Coordinating conjunctions: `and`, `but`, `or`, `nor`, `for`, `yet`, `so`.
/// - Prepositions of four or fewer letters: `as`, `at`, `by`, `for`, `from`,
///   `in`, `into`, `like`, `near`, `of`, `off`, `on`, `onto`, `out`, `over`,
///   `past`, `per`, `to`, `up`, `upon`, `via`, `with`.
///
/// Comparison ignores case. Title-style accepts a minor word in either case
/// after the first word (`Sign In to iCloud` and `Sign in to iCloud` both pass),
/// because a preposition used as a verb's particle is usually capitalized.
public enum MinorWords {
    /// Every minor word, lowercase, each once.
    public static let all: [StaticString] = [
        "a", "an", "the",
        "and", "but", "or", "nor", "for", "yet", "so",
        "as", "at", "by", "from", "in", "into", "like", "near", "of", "off", "on", "onto", "out", "over",
        "past", "per", "to", "up", "upon", "via", "with",
    ]

    /// The first letters of `all`.
    private static let firstLetters = FirstLetters(all)

    /// True when `word` is a minor word (ignoring case).
    public static func contains(_ word: Word) -> Bool {
        guard word.text.count <= 4, firstLetters.admits(word) else { return false }
        for minor in all where word.equals(minor) { return true }
        return false
    }
}
