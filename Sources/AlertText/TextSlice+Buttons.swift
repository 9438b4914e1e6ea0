extension TextSlice {
    /// The longest button title, in words, that `instruction(naming:)` looks for.
    public static let longestNamedTitle = 16

    /// The instruction verb (`InstructionVerbs`) that is followed within
    /// `distance` words by `title`'s words, if any: `Tap Delete`, `press the OK
    /// button`, `Tap on the View All button` name a button titled `Delete`, `OK`
    /// or `View All`. The title's words must follow in order, the first of them
    /// 1 to `distance` words after the verb (the nearest verb is returned); words
    /// compare ignoring case. A title without words, or of more than
    /// `longestNamedTitle` words, never matches.
    ///
    /// One pass over the text with a rolling hash of the last title-length words
    /// (checked word by word when it matches), so a hostile 4 KiB text costs no
    /// more than reading it; nothing is allocated on the heap.
    public func instruction(naming title: TextSlice, within distance: Int = 3) -> Word? {
        // Constants for the closure below: captured `var`s would cost dynamic exclusivity checks.
        guard distance > 0, let (length, titleHash, power) = TextSlice.rollingHash(of: title) else { return nil }
        return withUnsafeTemporaryAllocation(of: WindowEntry.self, capacity: length) { ring in
            var windowHash: UInt64 = 0
            var verb: Word?
            for word in words {
                let slot = word.index % length
                if word.index >= length {
                    // The oldest word leaves the window: it now stands before the window's start.
                    let old = ring[slot]
                    if old.isVerb { verb = old.word }
                    windowHash = windowHash &- old.hash &* power
                }
                let hash = word.foldedHash
                windowHash = windowHash &* TextSlice.rollingBase &+ hash
                ring.initializeElement(
                    at: slot,
                    to: WindowEntry(word: word, hash: hash, isVerb: InstructionVerbs.contains(word))
                )
                let start = word.index - length + 1
                guard start >= 0, let found = verb, start - found.index <= distance, windowHash == titleHash else {
                    continue
                }
                if TextSlice.window(ring, length: length, from: start, matches: title) { return found }
            }
            return nil
        }
    }

    /// The rolling hash of `title`'s words, their number, and the base to the power of
    /// that number minus one; nil without words or with more than `longestNamedTitle`.
    private static func rollingHash(of title: TextSlice) -> (length: Int, hash: UInt64, power: UInt64)? {
        var length = 0
        var hash: UInt64 = 0
        var power: UInt64 = 1  // base^(length - 1)
        for word in title.words {
            if length > 0 { power = power &* rollingBase }
            hash = hash &* rollingBase &+ word.foldedHash
            length += 1
            if length > longestNamedTitle { return nil }
        }
        return length > 0 ? (length, hash, power) : nil
    }

    /// One word of the rolling window.
    private struct WindowEntry {
        var word: Word
        var hash: UInt64
        var isVerb: Bool
    }

    /// The multiplier of the rolling word hash (odd, so multiplication is invertible mod 2^64).
    private static let rollingBase: UInt64 = 0x100_0000_01B3

    /// True when the window of `length` words, from word index `start`, equals `title`'s words.
    private static func window(
        _ ring: UnsafeMutableBufferPointer<WindowEntry>,
        length: Int,
        from start: Int,
        matches title: TextSlice
    ) -> Bool {
        var position = start
        for titleWord in title.words {
            guard ring[position % length].word.equals(titleWord) else { return false }
            position += 1
        }
        return true
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
}

extension TextSlice {
    /// True when the text quotes `title` between one of `marks`' pairs: the words from an opening
    /// mark to the next closing mark of its pair are exactly the title's words, ignoring case and
    /// punctuation (`Tippen Sie auf „Löschen“` quotes `Löschen`). A title without words is never
    /// quoted. Walks the bytes; allocates nothing.
    public func quotes(_ title: TextSlice, between marks: QuotationMarks) -> Bool {
        guard title.firstWord != nil else { return false }
        for pair in marks.pairs {
            var from = 0
            while let open = firstOffset(of: pair.opening, from: from) {
                let inside = open + pair.opening.count
                guard let close = firstOffset(of: pair.closing, from: inside) else { break }
                if slice(inside, close).hasExactlyTheWords(of: title) { return true }
                from = close + pair.closing.count
            }
        }
        return false
    }

    /// The offset of the first occurrence of `mark` at or after `start`, or nil.
    private func firstOffset(of mark: [UInt8], from start: Int) -> Int? {
        guard let lead = mark.first, mark.count <= count else { return nil }
        var offset = start
        while offset + mark.count <= count {
            if bytes[offset] == lead {
                var index = 1
                while index < mark.count && bytes[offset + index] == mark[index] { index += 1 }
                if index == mark.count { return offset }
            }
            offset += 1
        }
        return nil
    }

    /// True when the text's words are `other`'s words, in order, ignoring case.
    private func hasExactlyTheWords(of other: TextSlice) -> Bool {
        var mine = words.makeIterator()
        for word in other.words {
            guard let next = mine.next(), next.equals(word) else { return false }
        }
        return mine.next() == nil
    }
}
