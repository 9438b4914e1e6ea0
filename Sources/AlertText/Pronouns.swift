/// The pronouns alert text should avoid (rules.md `alert-pronoun`, catalogue v1.1; the
/// HIG's “you,” “your,” “me,” and “my”): `you`, `your`, `yours`, `you're`, `you'll`,
/// `you've`, `you'd`, `me`, `my`, with `’` the same as `'`. Whole words, ignoring case;
/// `yourself` and `mine` are not listed and do not count.
public enum Pronouns {
    /// Every listed pronoun, lowercase.
    public static let all: [StaticString] = ["you", "your", "yours", "you're", "you'll", "you've", "you'd", "me", "my"]

    /// True when `word` is a listed pronoun.
    public static func contains(_ word: Word) -> Bool {
        // One pass over the word and an integer `switch` (`Word.asciiKey`): no table to load.
        // First letters m y.
        guard word.text.count <= 8, word.startsWithLetter(in: 0x100_1000), let key = word.asciiKey else { return false }
        switch key {
        case 0x756f79, 0x7275_6f79, 0x73_7275_6f79, 0x6572_2775_6f79, 0x6c6c_2775_6f79, 0x6576_2775_6f79,
            0x64_2775_6f79,
            0x656d, 0x796d:
            return true
        default:
            return false
        }
    }
}
