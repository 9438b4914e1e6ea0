/// The verbs that tell a person which button to use (rules.md
/// `alert-button-instructions`): `tap`, `touch`, `click`, `press`, `choose`,
/// `select`. Whole words, ignoring case (`Tapping` does not count).
public enum InstructionVerbs {
    /// Every listed verb, lowercase.
    public static let all: [StaticString] = ["tap", "touch", "click", "press", "choose", "select"]

    /// True when `word` is a listed verb.
    public static func contains(_ word: Word) -> Bool {
        // One pass over the word and an integer `switch` (`Word.asciiKey`): no table to load.
        // First letters c p s t.
        guard word.text.count <= 6, word.startsWithLetter(in: 0xC_8004), let key = word.asciiKey else { return false }
        switch key {
        case 0x706174, 0x68_6375_6f74, 0x6b_6369_6c63, 0x73_7365_7270, 0x6573_6f6f_6863, 0x7463_656c_6573:
            return true
        default:
            return false
        }
    }
}
