/// The words of a text, in order, found without allocating (see `Word` for what
/// a word is). The walk also follows quotation marks (`"…"`, `“…”`, `„…“`,
/// `‘…’`, `'…'`, `«…»`) and sentence ends, so each word knows whether it is
/// quoted and whether it starts a sentence.
public struct Words: Sequence {
    /// The text walked.
    public let text: TextSlice

    /// The words of `text`.
    public init(_ text: TextSlice) {
        self.text = text
    }

    /// A fresh walk from the first word.
    public func makeIterator() -> Iterator { Iterator(text) }

    /// A walk over the words; a copy continues independently from the same place.
    public struct Iterator: IteratorProtocol {
        /// The kinds of quotation that can be open.
        private enum Quote {
            case double, single, guillemet
        }

        private let text: TextSlice
        private var offset = 0
        private var index = 0
        private var open: Quote?
        private var quotations = 0
        private var terminated = false
        private var boundary = true

        init(_ text: TextSlice) {
            self.text = text
        }

        /// True while a quotation is open (its closing mark not yet read).
        var isInsideQuotation: Bool { open != nil }

        /// The next word, or nil at the end of the text.
        public mutating func next() -> Word? {
            let walker = text.scalars
            while offset < text.count {
                let (scalar, width) = walker.scalar(at: offset)
                if ScalarClass.isApostrophe(scalar) || isLetterOrDigit(scalar, next: offset + width) {
                    if let word = scanRun() { return word }
                    continue
                }
                readPunctuation(scalar)
                offset += width
            }
            return nil
        }

        /// True for a letter or digit that is not shown as an emoji (`ℹ️`, `3️⃣`, `🅰`).
        private func isLetterOrDigit(_ scalar: Unicode.Scalar, next: Int) -> Bool {
            guard ScalarClass.isAlphanumeric(scalar), !ScalarClass.isEmoji(scalar) else { return false }
            guard next < text.count else { return true }
            return !ScalarClass.isEmojiSelector(text.scalars.scalar(at: next).scalar)
        }

        /// Reads the run of letters, digits and apostrophes at `offset` and moves past it;
        /// returns its word, or nil when the run held only apostrophes.
        private mutating func scanRun() -> Word? {
            let walker = text.scalars
            let start = offset
            var end = offset
            var first = -1
            var last = -1
            while end < text.count {
                let (scalar, width) = walker.scalar(at: end)
                if ScalarClass.isApostrophe(scalar) {
                    end += width
                } else if isLetterOrDigit(scalar, next: end + width) {
                    if first < 0 { first = end }
                    end += width
                    last = end
                } else if first >= 0 && ScalarClass.isWordContinuation(scalar) {
                    end += width
                    last = end
                } else {
                    break
                }
            }
            offset = end
            guard first >= 0 else {
                // Apostrophes alone: the closing mark of a single quotation, if one is open.
                if open == .single { open = nil }
                return nil
            }
            if first > start, open == nil, walker.scalar(before: first).scalar == "'" {
                quotations += 1
                open = .single
            }
            let quotation = open == nil ? 0 : quotations
            if end > last, open == .single { open = nil }
            let word = Word(
                text: text.slice(first, last),
                offset: first,
                index: index,
                shape: Iterator.shape(of: text.slice(first, last)),
                quotation: quotation,
                startsSentence: boundary
            )
            index += 1
            boundary = false
            terminated = false
            return word
        }

        /// Follows sentence ends and quotation marks outside words.
        private mutating func readPunctuation(_ scalar: Unicode.Scalar) {
            if ScalarClass.isSentenceTerminator(scalar) {
                terminated = true
            } else if ScalarClass.isWhitespace(scalar) {
                if terminated { boundary = true }
            }
            switch scalar.value {
            case 0x22:  // "
                if open == .double { open = nil } else if open == nil { begin(.double) }
            case 0x201C:  // “ opens, or closes „…“
                if open == .double { open = nil } else if open == nil { begin(.double) }
            case 0x201E:  // „
                if open == nil { begin(.double) }
            case 0x201D:  // ”
                if open == .double { open = nil }
            case 0x2018:  // ‘
                if open == nil { begin(.single) }
            case 0xAB:  // «
                if open == nil { begin(.guillemet) }
            case 0xBB:  // »
                if open == .guillemet { open = nil }
            default:
                break
            }
        }

        private mutating func begin(_ quote: Quote) {
            quotations += 1
            open = quote
        }

        /// The capitalization of a word's bytes (letters, digits, apostrophes, marks).
        static func shape(of word: TextSlice) -> WordShape {
            let walker = word.scalars
            guard !word.isEmpty else { return .uncased }
            let initial = walker.scalar(at: 0).scalar
            guard initial.isASCII ? isUpper(initial) || isLower(initial) : initial.properties.isAlphabetic else {
                return .uncased
            }
            let initialUpper = isUpper(initial)
            guard initialUpper || isLower(initial) else { return .uncased }
            var lower = initialUpper ? 0 : 1
            var upperAfterFirst = false
            var offset = walker.scalar(at: 0).width
            while offset < word.count {
                let (scalar, width) = walker.scalar(at: offset)
                offset += width
                if isUpper(scalar) { upperAfterFirst = true } else if isLower(scalar) { lower += 1 }
            }
            if lower == 0 { return .allCaps }
            if upperAfterFirst { return .innerCapital }
            return initialUpper ? .capitalized : .lowercase
        }

        private static func isUpper(_ scalar: Unicode.Scalar) -> Bool {
            if scalar.isASCII { return scalar.value >= 0x41 && scalar.value <= 0x5A }
            return scalar.properties.isUppercase || scalar.properties.generalCategory == .titlecaseLetter
        }

        private static func isLower(_ scalar: Unicode.Scalar) -> Bool {
            if scalar.isASCII { return scalar.value >= 0x61 && scalar.value <= 0x7A }
            return scalar.properties.isLowercase
        }
    }
}

extension TextSlice {
    /// The words of the text (`Word`).
    public var words: Words { Words(self) }

    /// How many words the text has.
    public var wordCount: Int {
        var count = 0
        var walk = words.makeIterator()
        while walk.next() != nil { count += 1 }
        return count
    }

    /// True when the text has more than `limit` words (stops counting past it).
    public func hasMoreWords(than limit: Int) -> Bool {
        var count = 0
        var walk = words.makeIterator()
        while walk.next() != nil {
            count += 1
            if count > limit { return true }
        }
        return false
    }

    /// The first word, if any.
    public var firstWord: Word? {
        var walk = words.makeIterator()
        return walk.next()
    }
}
