extension TextSlice {
    /// Title-style capitalization (rules.md; the iOS 7 HIG): every word is
    /// capitalized except the minor words (`MinorWords`) when they do not start
    /// the text or a sentence.
    ///
    /// A word passes as capitalized unless its shape is `lowercase`: words in
    /// capitals (`OK`), words with an inner capital (`iCloud`) and words without
    /// case (`3`, `写真`) pass. A minor word after the first may be in either case.
    /// Words in quotation marks are names and are not judged. A text without
    /// words is title-style. A text written in capitals (`isInCapitals`, such as
    /// `DELETE ALL`) is not.
    public var isTitleStyle: Bool {
        guard !isInCapitals else { return false }
        for word in words where !word.isQuoted && word.shape == .lowercase {
            if word.startsSentence || !word.isMinor { return false }
        }
        return true
    }

    /// Sentence-style capitalization (rules.md): each sentence's first word is
    /// capitalized and the rest are lowercase, except proper nouns.
    ///
    /// A sentence's first word passes unless it is `lowercase`. After it, a word
    /// fails only when it is `capitalized` (`Delete`) and not a known proper noun
    /// (`KnownProperNouns`): words in capitals (`OK`, `PDF`, `I`), words with an
    /// inner capital (`iCloud`, `FaceTime`), uncased words and words in quotation
    /// marks (`Allow “Maps” to use location?`) pass. A text without words is
    /// sentence-style; a text written in capitals (`isInCapitals`) is not.
    public var isSentenceStyle: Bool {
        guard !isInCapitals else { return false }
        for word in words where !word.isQuoted {
            if word.startsSentence {
                if word.shape == .lowercase { return false }
            } else if word.shape == .capitalized && !KnownProperNouns.contains(word) {
                return false
            }
        }
        return true
    }

    /// Title-style rather than sentence-style, as rules.md defines it for the
    /// `current` edition: at least `minimumWords` words (3), every word after the
    /// first that is not a minor word is capitalized (shape other than
    /// `lowercase`; quoted words are not judged), and the text is not also
    /// sentence-style. The last condition settles texts that fit both readings,
    /// such as `Save as PDF` or `Sign in to iCloud`, as sentence-style.
    public func isTitleStyleRatherThanSentenceStyle(minimumWords: Int = 3) -> Bool {
        var count = 0
        for word in words {
            count += 1
            if word.index > 0, !word.isQuoted, word.shape == .lowercase, !word.isMinor { return false }
        }
        return count >= minimumWords && !isSentenceStyle
    }

    /// True unless the first word is lowercase: the text begins with a capital
    /// letter, a digit, an uncased letter, a word with an inner capital (`iCloud`)
    /// or a quoted name. Leading quotation marks, brackets and emoji are skipped;
    /// a text without words passes.
    public var startsWithCapital: Bool {
        guard let first = firstWord, !first.isQuoted else { return true }
        return first.shape != .lowercase
    }

    /// True when the text is written in capitals: it has no lowercase letter and
    /// at least one word of four or more letters in capitals (`CANCEL`, `DELETE
    /// ALL`). Short words in capitals are abbreviations and stay fine: `OK`,
    /// `PDF`, `USB ID`, `I`.
    public var isInCapitals: Bool {
        var shouted = false
        for word in words {
            switch word.shape {
            case .lowercase, .capitalized, .innerCapital:
                return false
            case .allCaps:
                if !shouted { shouted = word.letterCount >= 4 }
            case .uncased:
                if word.hasLowercaseLetter { return false }
            }
        }
        return shouted
    }
}
