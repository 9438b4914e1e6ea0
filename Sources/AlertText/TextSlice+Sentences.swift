extension TextSlice {
    /// The punctuation the text ends with, looking past trailing whitespace and
    /// closing quotation marks or brackets (`Tap “Done.”` ends with a period);
    /// nil when it ends with anything else (a letter, an emoji) or is blank.
    /// Three or more periods are an ellipsis, not a period.
    public var endingMark: EndingMark? {
        let walker = scalars
        var end = count
        while end > 0 {
            let (scalar, start) = walker.scalar(before: end)
            if ScalarClass.isWhitespace(scalar) || ScalarClass.isCloser(scalar) {
                end = start
                continue
            }
            guard let mark = ScalarClass.endingMark(scalar) else { return nil }
            guard mark == .period, scalar == "." else { return mark }
            var periods = 1
            var before = start
            while before > 0, periods < 3 {
                let (previous, previousStart) = walker.scalar(before: before)
                guard previous == "." else { break }
                periods += 1
                before = previousStart
            }
            return periods >= 3 ? .ellipsis : .period
        }
        return nil
    }

    /// True when the text is a question: it ends with `?` (see `endingMark`).
    public var isQuestion: Bool { endingMark == .question }

    /// True when the text ends with a period (not an ellipsis; see `endingMark`).
    public var endsWithPeriod: Bool { endingMark == .period }

    /// The text without leading and trailing whitespace and without the ending
    /// punctuation it ends with (every trailing `.` `!` `?` `…` `:` `;` `,`).
    public var trimmingEndingPunctuation: TextSlice {
        let walker = scalars
        let base = trimmed
        let offset = base.isEmpty ? 0 : (base.bytes.baseAddress! - bytes.baseAddress!)
        var end = offset + base.count
        while end > offset {
            let (scalar, start) = walker.scalar(before: end)
            guard ScalarClass.isWhitespace(scalar) || ScalarClass.endingMark(scalar) != nil else { break }
            end = start
        }
        return base.slice(keepingWords: 0, end - offset)
    }

    /// How many sentences the text has: 0 without words, else 1 plus one for each
    /// word that follows a sentence's ending mark (`.` `!` `?` `…`, then optional
    /// closing quotation marks, then whitespace). A period inside a word or number
    /// (`v1.2`, `example.com`) ends nothing.
    public var sentenceCount: Int {
        var count = 0
        for word in words where word.startsSentence { count += 1 }
        return count
    }
}
