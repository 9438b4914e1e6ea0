/// The verbs that tell a person which button to use (rules.md
/// `alert-button-instructions`): `tap`, `touch`, `click`, `press`, `choose`,
/// `select`. Whole words, ignoring case (`Tapping` does not count).
public enum InstructionVerbs {
    /// Every listed verb, lowercase.
    public static let all: [StaticString] = ["tap", "touch", "click", "press", "choose", "select"]

    /// The first letters of `all`.
    private static let firstLetters = FirstLetters(all)

    /// True when `word` is a listed verb.
    public static func contains(_ word: Word) -> Bool {
        guard word.text.count <= 6, firstLetters.admits(word) else { return false }
        for verb in all where word.equals(verb) { return true }
        return false
    }
}
