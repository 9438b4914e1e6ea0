/// The pronouns alert text should avoid (rules.md `alert-pronoun`; the HIG's
/// “you,” “your,” “me,” and “my”): `you`, `your`, `you're` (also `you’re`),
/// `yours`, `me`, `my`. Whole words, ignoring case; `yourself`, `you’ll`,
/// `mine` are not listed and do not count.
public enum Pronouns {
    /// Every listed pronoun, lowercase.
    public static let all: [StaticString] = ["you", "your", "you're", "yours", "me", "my"]

    /// The first letters of `all`.
    private static let firstLetters = FirstLetters(all)

    /// True when `word` is a listed pronoun.
    public static func contains(_ word: Word) -> Bool {
        guard word.text.count <= 8, firstLetters.admits(word) else { return false }
        for pronoun in all where word.equals(pronoun) { return true }
        return false
    }
}
