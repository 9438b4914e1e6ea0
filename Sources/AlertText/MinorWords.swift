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

    /// True when `word` is a minor word (ignoring case).
    public static func contains(_ word: Word) -> Bool {
        // One pass over the word and an integer `switch` (`Word.asciiKey`): no table to load.
        // First letters a b f i l n o p s t u v w y.
        guard word.text.count <= 4, word.startsWithLetter(in: 0x17C_E923), let key = word.asciiKey else { return false }
        switch key {
        case 0x61, 0x6e61, 0x656874, 0x646e61, 0x747562, 0x726f, 0x726f6e, 0x726f66,
            0x746579, 0x6f73, 0x7361, 0x7461, 0x7962, 0x6d6f_7266, 0x6e69, 0x6f74_6e69,
            0x656b_696c, 0x7261_656e, 0x666f, 0x66666f, 0x6e6f, 0x6f74_6e6f, 0x74756f, 0x7265_766f,
            0x7473_6170, 0x726570, 0x6f74, 0x7075, 0x6e6f_7075, 0x616976, 0x6874_6977:
            return true
        default:
            return false
        }
    }
}
