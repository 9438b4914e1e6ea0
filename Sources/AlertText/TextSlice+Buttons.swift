extension TextSlice {
    /// The instruction verb (`InstructionVerbs`) that is followed within
    /// `distance` words by `title`'s words, if any: `Tap Delete`, `press the OK
    /// button`, `Tap on the View All button` name a button titled `Delete`, `OK`
    /// or `View All`. The title's words must follow in order, the first of them
    /// 1 to `distance` words after the verb; words compare ignoring case. A title
    /// without words never matches.
    public func instruction(naming title: TextSlice, within distance: Int = 3) -> Word? {
        guard title.firstWord != nil, distance > 0 else { return nil }
        var walk = words.makeIterator()
        while let word = walk.next() {
            guard InstructionVerbs.contains(word) else { continue }
            var ahead = walk
            for _ in 0..<distance {
                var candidate = ahead
                if TextSlice.follows(title, in: &candidate) { return word }
                guard ahead.next() != nil else { break }
            }
        }
        return nil
    }

    /// True when the text quotes `title`: the words of one quotation (`"…"`,
    /// `“…”`, `‘…’`, `'…'`, `«…»`, `„…“`) are exactly the title's words, ignoring
    /// case and punctuation (`Tap “Delete.”` quotes `Delete`; `“Delete All”` does
    /// not quote `Delete`). A title without words is never quoted.
    public func quotes(_ title: TextSlice) -> Bool {
        guard title.firstWord != nil else { return false }
        var walk = words.makeIterator()
        var last = 0
        while let word = walk.next() {
            guard word.quotation != 0, word.quotation != last else { continue }
            last = word.quotation
            var current: Word? = word
            var rest = walk
            var matched = true
            for titleWord in title.words {
                guard let candidate = current, candidate.quotation == word.quotation, candidate.equals(titleWord) else {
                    matched = false
                    break
                }
                current = rest.next()
            }
            guard matched else { continue }
            // Exactly the title: the quotation ends after its last word, and is closed.
            if let next = current {
                if next.quotation != word.quotation { return true }
            } else if !rest.isInsideQuotation {
                return true
            }
        }
        return false
    }

    /// True when the next words of `walk` are `title`'s words, in order.
    private static func follows(_ title: TextSlice, in walk: inout Words.Iterator) -> Bool {
        for titleWord in title.words {
            guard let word = walk.next(), word.equals(titleWord) else { return false }
        }
        return true
    }
}
