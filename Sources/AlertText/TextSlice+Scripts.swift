extension TextSlice {
    /// How many of the text's letters are of each `WritingScript` (letters of other scripts,
    /// digits and punctuation count for none). Walks the bytes without allocating.
    public var letterScripts: LetterScripts {
        var counts = LetterScripts()
        scalars.forEach { scalar, _, _ in
            if let script = WritingScript.of(scalar) { counts.add(script) }
            return true
        }
        return counts
    }

    /// True when more than half of the text's letters are of a script other than Latin
    /// (rules.md, "Languages"): a text the rules of English wording do not judge when its
    /// language is undetermined.
    public var isMostlyNonLatin: Bool { letterScripts.isMostlyNonLatin }

    /// True when at least half of the text's letters (and at least one) are of a script written
    /// without spaces between words (Han, Kana, Thai, Lao, Khmer, Myanmar).
    public var isMostlySpaceless: Bool { letterScripts.isMostlySpaceless }

    /// The text's length as the length rules count it (rules.md, `alert-title-too-long`):
    /// grapheme clusters, one whose first scalar is East Asian wide or full-width
    /// (`WritingScript.isWide`) counting as two. Allocates a `String` for texts over 15 bytes.
    public var displayLength: Int {
        var total = 0
        for character in string {
            total += WritingScript.isWide(character.unicodeScalars.first!) ? 2 : 1
        }
        return total
    }

    /// True when a scalar of the text is East Asian wide or full-width (`displayLength` counts
    /// its character as two). Walks the bytes without allocating.
    public var hasWideCharacters: Bool {
        var wide = false
        scalars.forEach { scalar, _, _ in
            wide = WritingScript.isWide(scalar)
            return !wide
        }
        return wide
    }

    /// True when the text is longer than `limit` as `displayLength` counts. Decides from the
    /// byte count when it can (a wide scalar has at least 3 bytes, so no text counts more than
    /// its bytes), then from its scalars (a character is at least one scalar: no text counts more
    /// than its scalars, a wide one as two), and counts characters, allocating, only past both.
    public func hasGreaterDisplayLength(than limit: Int) -> Bool {
        guard count > limit else { return false }
        var scalarWidth = 0
        scalars.forEach { scalar, _, _ in
            scalarWidth += WritingScript.isWide(scalar) ? 2 : 1
            return scalarWidth <= limit
        }
        guard scalarWidth > limit else { return false }
        return displayLength > limit
    }
}
