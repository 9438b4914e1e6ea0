/// One word of a text: a run of letters, digits and apostrophes (`'` and `’`),
/// with the apostrophes at its ends removed (they are quotation marks or a
/// possessive plural's, not part of the word), as `TextSlice.words` yields it.
///
/// Letters are Unicode letters (`Alphabetic`) with their combining marks;
/// digits are any scalar with a numeric value. Emoji are never letters, even
/// keycaps such as `3️⃣` or `ℹ️`.
public struct Word {
    /// The word's own bytes (a view into the text it came from).
    public let text: TextSlice
    /// Its byte offset in the text it came from.
    public let offset: Int
    /// Its position among the text's words, from 0.
    public let index: Int
    /// Its capitalization.
    public let shape: WordShape
    /// 0 outside quotation marks; inside, the 1-based number of the quotation
    /// it belongs to (words of the same quotation share the number).
    public let quotation: Int
    /// True for the first word of the text and the first word after a sentence's
    /// ending mark (`.` `!` `?` `…`, then optional closing quotes, then whitespace).
    public let startsSentence: Bool

    /// Makes a word (the text analysis does this; public for tests and other tools).
    @inlinable
    public init(text: TextSlice, offset: Int, index: Int, shape: WordShape, quotation: Int, startsSentence: Bool) {
        self.text = text
        self.offset = offset
        self.index = index
        self.shape = shape
        self.quotation = quotation
        self.startsSentence = startsSentence
    }

    /// True inside quotation marks: a quoted name keeps its own capitalization.
    public var isQuoted: Bool { quotation != 0 }

    /// The word as a `String` (allocates for words over 15 bytes).
    public var string: String { text.string }

    /// True when the word is one of the minor words of title-style capitalization (`MinorWords`).
    public var isMinor: Bool { MinorWords.contains(self) }

    /// True when both words are the same ignoring case (Unicode lowercase mapping),
    /// with `'` and `’` the same apostrophe: `You’re` equals `you're`.
    public func equals(_ other: Word) -> Bool {
        text.sameWordIgnoringCase(other.text)
    }

    /// True when the word equals `literal` ignoring case, with `'` and `’` the same;
    /// `literal` must be lowercase (ASCII letters and `'`), e.g. `"you're"`.
    public func equals(_ literal: StaticString) -> Bool {
        text.equalsLowercaseASCII(literal)
    }

    /// The number of letters (Unicode `Alphabetic` scalars) in the word.
    public var letterCount: Int {
        var letters = 0
        text.scalars.forEach { scalar, _, _ in
            if ScalarClass.isAlphabetic(scalar) { letters += 1 }
            return true
        }
        return letters
    }

    /// True when some letter of the word is lowercase (`1st`, `3d`).
    public var hasLowercaseLetter: Bool {
        var found = false
        text.scalars.forEach { scalar, _, _ in
            found = ScalarClass.isLowercase(scalar)
            return !found
        }
        return found
    }
}
