/// The letters of a text by `WritingScript` (`TextSlice.letterScripts`).
public struct LetterScripts: Sendable, Hashable {
    /// Latin letters.
    public var latin = 0
    /// Letters of the other cased scripts (Greek, Cyrillic, …).
    public var cased = 0
    /// Letters of scripts without case that separate words with spaces.
    public var uncased = 0
    /// Letters of scripts written without spaces.
    public var spaceless = 0

    /// None.
    public init() {}

    /// Counts one letter of `script`.
    public mutating func add(_ script: WritingScript) {
        switch script {
        case .latin: latin += 1
        case .cased: cased += 1
        case .uncased: uncased += 1
        case .spaceless: spaceless += 1
        }
    }

    /// Adds the counts of `other` (another text of the same event).
    public mutating func add(_ other: LetterScripts) {
        latin += other.latin
        cased += other.cased
        uncased += other.uncased
        spaceless += other.spaceless
    }

    /// Every letter counted.
    public var total: Int { latin + cased + uncased + spaceless }

    /// More than half of the letters are not Latin.
    public var isMostlyNonLatin: Bool { 2 * (total - latin) > total }

    /// At least half of the letters (and at least one) are of a script written without spaces.
    public var isMostlySpaceless: Bool { spaceless > 0 && 2 * spaceless >= total }
}
