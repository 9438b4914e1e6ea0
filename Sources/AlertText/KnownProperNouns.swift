/// Capitalized words that sentence-style capitalization accepts after a
/// sentence's first word because they are proper nouns, beyond the ones their
/// form already shows (words in capitals such as `OK`, words with an inner
/// capital such as `iCloud` or `FaceTime`, and words in quotation marks, which
/// are names: `Allow “Maps” to use your location?`).
///
/// The list is short on purpose, and compared ignoring case of all but the
/// first letter:
/// - the pronoun `I` and its contractions: `I’m`, `I’ll`, `I’ve`, `I’d`;
/// - names of Apple technologies spelled with one capital: `Apple`, `Bluetooth`,
///   `Siri`, `Safari`, `Mac`, and `Wi` and `Fi` (the two words of `Wi-Fi`);
/// - days of the week and months (not `May`, which is also a verb).
public enum KnownProperNouns {
    /// Every listed word, lowercase.
    public static let all: [StaticString] = [
        "i'm", "i'll", "i've", "i'd",
        "apple", "bluetooth", "siri", "safari", "mac", "wi", "fi",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "january", "february", "march", "april", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    /// The first letters of `all`.
    private static let firstLetters = FirstLetters(all)

    /// True when `word` is capitalized and listed.
    public static func contains(_ word: Word) -> Bool {
        guard word.shape == .capitalized, word.text.count <= 9, firstLetters.admits(word) else { return false }
        for noun in all where word.equals(noun) { return true }
        return false
    }
}
