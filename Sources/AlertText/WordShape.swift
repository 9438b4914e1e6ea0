public import ModalwatchABI

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

    /// The shape as `mw_word.shape` gives it (`mw_word_shape`).
    var wireValue: UInt8 {
        switch self {
        case .lowercase: UInt8(MW_SHAPE_LOWERCASE.rawValue)
        case .capitalized: UInt8(MW_SHAPE_CAPITALIZED.rawValue)
        case .allCaps: UInt8(MW_SHAPE_ALL_CAPS.rawValue)
        case .innerCapital: UInt8(MW_SHAPE_INNER_CAPITAL.rawValue)
        case .uncased: UInt8(MW_SHAPE_UNCASED.rawValue)
        }
    }

    /// The shape `mw_word.shape` names (`uncased` for a value it does not know).
    @inlinable
    init(wireValue: UInt8) {
        switch UInt32(wireValue) {
        case MW_SHAPE_LOWERCASE.rawValue: self = .lowercase
        case MW_SHAPE_CAPITALIZED.rawValue: self = .capitalized
        case MW_SHAPE_ALL_CAPS.rawValue: self = .allCaps
        case MW_SHAPE_INNER_CAPITAL.rawValue: self = .innerCapital
        default: self = .uncased
        }
    }
}
