public import ModalwatchABI

/// The words of a text, in order (see `Word` for what a word is). The walk also
/// follows quotation marks (`"…"`, `“…”`, `„…“`, `‘…’`, `'…'`, `«…»`) and
/// sentence ends, so each word knows whether it is quoted and whether it starts
/// a sentence.
///
/// A text that carries its `WordList` (an event's text, tokenized once by the host
/// for every rule: `mw_host.words`) is walked by reading the list; any other text is
/// scanned. A walk counts no references and allocates nothing.
public struct Words: Sequence {
    /// The text walked.
    public let text: TextSlice

    /// The words of `text`.
    @inlinable
    public init(_ text: TextSlice) {
        self.text = text
    }

    /// A fresh walk from the first word.
    @inlinable
    public func makeIterator() -> Iterator {
        if let list = text.wordList { return Iterator(text, list: list) }
        return Iterator(scanning: text)
    }

    /// A walk over the words; a copy continues independently from the same place.
    public struct Iterator: IteratorProtocol {
        /// The kinds of quotation that can be open.
        @usableFromInline enum Quote {
            case double, single, guillemet
        }

        @usableFromInline let text: TextSlice
        @usableFromInline var offset = 0
        @usableFromInline var index = 0
        @usableFromInline var open: Quote?
        @usableFromInline var quotations = 0
        @usableFromInline var terminated = false
        @usableFromInline var boundary = true
        /// The text's words as already read, when it carries them: the walk reads them.
        @usableFromInline let list: WordList?
        /// In a list walk: the words read so far, and whether the end was read.
        @usableFromInline var position = 0
        @usableFromInline var finished = false

        /// A walk that tokenizes `text`.
        @inlinable
        init(scanning text: TextSlice) {
            self.text = text
            list = nil
        }

        /// A walk that reads `list`, the words of `text`.
        @inlinable
        init(_ text: TextSlice, list: WordList) {
            self.text = text
            self.list = list
        }

        /// True while a quotation is open (its closing mark not yet read).
        var isInsideQuotation: Bool {
            guard let list else { return open != nil }
            if finished { return list.endsInsideQuotation }
            guard position > 0 else { return false }
            return list.entries[position - 1].flags & UInt8(MW_WORD_INSIDE_QUOTATION_AFTER) != 0
        }

        /// The next word, or nil at the end of the text.
        @inlinable
        public mutating func next() -> Word? {
            if let list { return nextListed(list) }
            return nextScanned()
        }

        /// The next word of the list.
        @inlinable
        mutating func nextListed(_ list: WordList) -> Word? {
            guard position < list.count else {
                finished = true
                return nil
            }
            let entry = list.entries[position]
            let start = Int(entry.offset) - list.shift
            let word = Word(
                text: text.slice(start, start + Int(entry.length)),
                offset: start,
                index: position,
                shape: WordShape(wireValue: entry.shape),
                quotation: Int(entry.quotation),
                startsSentence: entry.flags & UInt8(MW_WORD_STARTS_SENTENCE) != 0
            )
            position += 1
            return word
        }

        /// The next word, read from the bytes.
        @usableFromInline
        mutating func nextScanned() -> Word? {
            let bytes = text.bytes
            let walker = text.scalars
            while offset < bytes.count {
                let lead = bytes[offset]
                if lead < 0x80 {
                    // ASCII: one byte, one scalar; no property lookup.
                    if lead == 0x27 || (ScalarClass.isASCIIAlphanumeric(lead) && !isEmojiSelector(at: offset + 1)) {
                        if let word = scanRun() { return word }
                        continue
                    }
                    readPunctuation(Unicode.Scalar(lead))
                    offset += 1
                    continue
                }
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

        /// True when an emoji selector (U+FE0F, U+20E3) starts at byte `position`
        /// (false at the end of the text and for any ASCII byte).
        private func isEmojiSelector(at position: Int) -> Bool {
            guard position < text.count, text.bytes[position] >= 0x80 else { return false }
            return ScalarClass.isEmojiSelector(text.scalars.scalar(at: position).scalar)
        }

        /// True for a letter or digit that is not shown as an emoji (`ℹ️`, `3️⃣`, `🅰`).
        private func isLetterOrDigit(_ scalar: Unicode.Scalar, next: Int) -> Bool {
            guard ScalarClass.isAlphanumeric(scalar), !ScalarClass.isEmoji(scalar) else { return false }
            return !isEmojiSelector(at: next)
        }

        /// Reads the run of letters, digits and apostrophes at `offset` and moves past it;
        /// returns its word, or nil when the run held only apostrophes.
        ///
        /// The word's shape is read during the same pass while its scalars are ASCII letters,
        /// digits or apostrophes (`'` or `’`, which have no case); any other scalar in it
        /// sends the word through `shape(of:)`.
        private mutating func scanRun() -> Word? {
            let bytes = text.bytes
            let walker = text.scalars
            let start = offset
            var end = offset
            var first = -1
            var last = -1
            // The shape of an ASCII word, read on the way.
            var plain = true
            var initialUpper = false
            var initialLower = false
            var upperAfterFirst = false
            var lowerAfterFirst = 0
            while end < bytes.count {
                let lead = bytes[end]
                if lead < 0x80 {
                    if lead == 0x27 {
                        end += 1
                        continue
                    }
                    // An ASCII byte is never a word continuation: anything but a letter or digit ends the run.
                    guard ScalarClass.isASCIIAlphanumeric(lead), !isEmojiSelector(at: end + 1) else { break }
                    let upper = lead >= 0x41 && lead <= 0x5A
                    let lower = lead >= 0x61 && lead <= 0x7A
                    if first < 0 {
                        first = end
                        initialUpper = upper
                        initialLower = lower
                    } else if upper {
                        upperAfterFirst = true
                    } else if lower {
                        lowerAfterFirst += 1
                    }
                    end += 1
                    last = end
                    continue
                }
                let (scalar, width) = walker.scalar(at: end)
                if ScalarClass.isApostrophe(scalar) {
                    end += width
                } else if isLetterOrDigit(scalar, next: end + width) {
                    if first < 0 { first = end }
                    plain = false
                    end += width
                    last = end
                } else if first >= 0 && ScalarClass.isWordContinuation(scalar) {
                    plain = false
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
            let shape: WordShape
            if !plain {
                shape = Iterator.shape(of: text.slice(first, last))
            } else if !initialUpper && !initialLower {
                shape = .uncased  // starts with a digit
            } else if initialUpper && lowerAfterFirst == 0 {
                shape = .allCaps
            } else if upperAfterFirst {
                shape = .innerCapital
            } else {
                shape = initialUpper ? .capitalized : .lowercase
            }
            let word = Word(
                text: text.slice(first, last),
                offset: first,
                index: index,
                shape: shape,
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
        @inline(never)
        static func shape(of word: TextSlice) -> WordShape {
            let walker = word.scalars
            guard !word.isEmpty else { return .uncased }
            let initial = walker.scalar(at: 0).scalar
            guard ScalarClass.isAlphabetic(initial) else {
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

        private static func isUpper(_ scalar: Unicode.Scalar) -> Bool { ScalarClass.isUppercase(scalar) }

        private static func isLower(_ scalar: Unicode.Scalar) -> Bool { ScalarClass.isLowercase(scalar) }
    }
}

// A walk holds plain pointers into its text (and list): it stays where they are valid.
@available(*, unavailable)
extension Words.Iterator: Sendable {}

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

    /// The text's word when it has exactly one, else nil (`firstWord` when
    /// `hasMoreWords(than: 1)` is false, in one walk).
    public var onlyWord: Word? {
        var walk = words.makeIterator()
        guard let word = walk.next(), walk.next() == nil else { return nil }
        return word
    }
}
