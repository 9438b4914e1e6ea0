public import ModalwatchABI

/// The words of a text as a tokenizer already read them (`mw_words`: the host tokenizes
/// an event's texts once per event and hands the list to every rule, ABI 1.3): a text
/// that carries its list is walked by reading it instead of scanning the bytes again.
/// Plain pointers, no reference counting; valid as long as the list it was made from
/// (for the host's, until the rule call returns).
public struct WordList {
    /// The words, in order, their offsets from the start of the text they were read from.
    @usableFromInline let entries: UnsafePointer<mw_word>
    /// How many words.
    @usableFromInline let count: Int
    /// Whether a quotation is still open at the end of the text.
    @usableFromInline let endsInsideQuotation: Bool
    /// Where the text that carries the list starts in the text it was read from
    /// (a trimmed view keeps its text's list): subtracted from every offset.
    @usableFromInline let shift: Int

    /// The list of `words` (as `mw_host.words` filled it).
    public init(_ words: mw_words) {
        // A list of no words may have no buffer: any aligned address will do, nothing is read.
        entries = words.words ?? UnsafePointer(bitPattern: MemoryLayout<mw_word>.alignment)!
        count = Int(words.count)
        endsInsideQuotation = words.flags & UInt32(MW_WORDS_ENDS_INSIDE_QUOTATION) != 0
        shift = 0
    }

    private init(entries: UnsafePointer<mw_word>, count: Int, endsInsideQuotation: Bool, shift: Int) {
        self.entries = entries
        self.count = count
        self.endsInsideQuotation = endsInsideQuotation
        self.shift = shift
    }

    /// The same list for the part of its text from `start` to `end`, when the part has the
    /// same words: everything before `start` is whitespace (so the walk's state there is the
    /// state at the text's start) and no word ends after `end`. Nil otherwise.
    func narrowed(start: Int, end: Int, leadIsWhitespace: Bool) -> WordList? {
        guard leadIsWhitespace else { return nil }
        if count > 0 {
            let last = entries[count - 1]
            guard Int(last.offset) + Int(last.length) - shift <= end else { return nil }
        }
        return WordList(entries: entries, count: count, endsInsideQuotation: endsInsideQuotation, shift: shift + start)
    }
}

extension TextSlice {
    /// Walks the text's words by scanning its bytes (never a list it carries), calling `body`
    /// with each as an `mw_word`; returns the `mw_words.flags` of the whole text. What a host
    /// uses to tokenize a text once for every rule (`WordList`).
    public func scanWords(_ body: (mw_word) -> Void) -> UInt32 {
        var walk = Words.Iterator(scanning: self)
        while let word = walk.next() {
            var flags: UInt8 = word.startsSentence ? UInt8(MW_WORD_STARTS_SENTENCE) : 0
            if walk.isInsideQuotation { flags |= UInt8(MW_WORD_INSIDE_QUOTATION_AFTER) }
            body(
                mw_word(
                    offset: UInt32(truncatingIfNeeded: word.offset),
                    length: UInt32(truncatingIfNeeded: word.text.count),
                    quotation: UInt32(truncatingIfNeeded: word.quotation),
                    shape: word.shape.wireValue,
                    flags: flags,
                    reserved: 0
                )
            )
        }
        return walk.isInsideQuotation ? UInt32(MW_WORDS_ENDS_INSIDE_QUOTATION) : 0
    }
}
