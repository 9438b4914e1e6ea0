extension TextSlice {
    /// The text in sentence-style capitalization (rules.md), as a suggestion writes it: the
    /// first word of each sentence capitalized, every other capitalized word lowercased
    /// unless it is a known proper noun (`KnownProperNouns`). Words in capitals (`OK`), with
    /// an inner capital (`iCloud`), without case and in quotation marks are kept. Allocates.
    public var sentenceStyled: String {
        restyled { word in
            if word.startsSentence { return word.shape == .lowercase ? .upper : nil }
            return word.shape == .capitalized && !KnownProperNouns.contains(word) ? .lower : nil
        }
    }

    /// The text in title-style capitalization (rules.md), as a suggestion writes it: every
    /// lowercase word capitalized except the minor words (`MinorWords`) that do not start a
    /// sentence; all other words are kept. Allocates.
    public var titleStyled: String {
        restyled { word in
            word.shape == .lowercase && (word.startsSentence || !word.isMinor) ? .upper : nil
        }
    }

    /// The first letter's new case.
    private enum FirstLetterCase {
        case upper, lower
    }

    /// The text with the first letter of each word outside quotation marks changed as
    /// `change` says (nil: kept). Allocates.
    private func restyled(_ change: (Word) -> FirstLetterCase?) -> String {
        var out = ""
        var copied = 0
        for word in words where !word.isQuoted {
            guard let target = change(word) else { continue }
            let text = word.text.string
            guard let first = text.first else { continue }
            out += slice(copied, word.offset).string
            out += target == .upper ? first.uppercased() : first.lowercased()
            out += text.dropFirst()
            copied = word.offset + word.text.count
        }
        out += slice(copied, count).string
        return out
    }

    /// The text without the period it ends with (`endsWithPeriod`: `.`, or a period of another
    /// script such as `。` or `।`, removed whole, all its bytes); closing quotation marks after it
    /// are kept (`Tap “Done.”` becomes `Tap “Done”`, `申し訳ありません。` becomes `申し訳ありません`).
    /// Allocates.
    public var withoutEndingPeriod: String {
        guard endsWithPeriod else { return string }
        let walker = scalars
        var end = count
        while end > 0 {
            let (scalar, start) = walker.scalar(before: end)
            if ScalarClass.endingMark(scalar) == .period { return slice(0, start).string + slice(end, count).string }
            end = start
        }
        return string
    }
}
