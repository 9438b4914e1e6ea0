/// The capitalization of one word, read from its letters (Unicode `Uppercase`
/// and `Lowercase`; a titlecase letter such as `ǅ` counts as uppercase).
public enum WordShape: Sendable, Hashable, CaseIterable {
    /// The first letter is lowercase and no letter is uppercase: `delete`, `über`.
    case lowercase
    /// The first letter is uppercase and every other letter lowercase: `Delete`, `Can’t`, `Löschen`.
    case capitalized
    /// Every cased letter is uppercase: `OK`, `PDF`, `I`, `ÉDITER`.
    case allCaps
    /// Lowercase and uppercase letters with a capital after the first letter:
    /// `iCloud`, `FaceTime`, `eBay`, `iOS`. Such a word counts as a proper noun.
    case innerCapital
    /// No capitalization to judge: the word starts with a digit (`3`, `3D`, `1st`),
    /// or its first letter has no case (`写真`, `שלום`).
    case uncased

    /// True unless the word is `lowercase`: what title-style asks of a major word
    /// and sentence-style of a sentence's first word (words in capitals, words
    /// with an inner capital and uncased words always pass).
    public var passesAsCapitalized: Bool { self != .lowercase }

    /// True for the shapes sentence-style allows after a sentence's first word:
    /// anything but `capitalized` (words in capitals and `iCloud`-like words are
    /// proper nouns by their form).
    public var passesInSentence: Bool { self != .capitalized }
}
