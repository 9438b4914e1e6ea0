/// A non-owning view of UTF-8 text for analysis: an alert's title, message or a
/// button's title. Every question asked of it (words, capitalization, sentences,
/// quotations, instructions, pronouns) walks the bytes without allocating,
/// except where a helper says so. A view made with the text's `WordList` (the
/// host's tokens of an event's text) reads its words from the list instead of
/// scanning. Any bytes are accepted: a byte that does not start valid UTF-8
/// reads as U+FFFD.
///
/// ```swift
/// let isQuestion = TextSlice.with("Delete this contact?") { $0.isQuestion }   // true
/// ```
///
/// The view is valid as long as the bytes it was made from.
public struct TextSlice {
    /// The UTF-8 bytes.
    public let bytes: UnsafeBufferPointer<UInt8>

    /// The words of `bytes` as already read (the host's tokens), or nil: then a walk scans.
    public let wordList: WordList?

    /// A view of `bytes` (which must outlive every use of the view).
    @inlinable
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        wordList = nil
    }

    /// A view of `bytes` whose words are `words` (as read from exactly these bytes; both must
    /// outlive every use of the view): its word walks read the list.
    @inlinable
    public init(_ bytes: UnsafeBufferPointer<UInt8>, words: WordList?) {
        self.bytes = bytes
        wordList = words
    }

    /// The empty text.
    @inlinable
    public static var empty: TextSlice { TextSlice(UnsafeBufferPointer(start: nil, count: 0)) }

    /// Calls `body` with a view of `string`'s UTF-8 (valid only during the call).
    public static func with<Result>(_ string: String, _ body: (TextSlice) throws -> Result) rethrows -> Result {
        var copy = string
        return try copy.withUTF8 { try body(TextSlice($0)) }
    }

    /// The number of UTF-8 bytes.
    public var count: Int { bytes.count }

    /// True when there are no bytes.
    public var isEmpty: Bool { bytes.isEmpty }

    /// A copy as a `String` (allocates for texts over 15 bytes).
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// True when empty or only whitespace (Unicode `White_Space`).
    public var isBlank: Bool {
        var blank = true
        scalars.forEach { scalar, _, _ in
            blank = ScalarClass.isWhitespace(scalar)
            return blank
        }
        return blank
    }

    /// The same text without leading and trailing whitespace (a sub-view).
    public var trimmed: TextSlice {
        // ASCII whitespace off both ends byte by byte; when the bytes left at both ends are
        // ASCII (each a whole scalar, not whitespace), that is the answer without a walk.
        guard let base = bytes.baseAddress else { return .empty }
        var start = 0
        var end = bytes.count
        while start < end, Self.isASCIIWhitespace(base[start]) { start &+= 1 }
        while end > start, Self.isASCIIWhitespace(base[end &- 1]) { end &-= 1 }
        guard start < end else { return .empty }
        if base[start] < 0x80, base[end &- 1] < 0x80 { return slice(keepingWords: start, end) }
        return trimmedByScalars
    }

    /// Whether `byte` is one of the ASCII `White_Space` characters (tab to carriage return, space).
    @inline(__always)
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte &- 0x09 < 5
    }

    /// `trimmed` by a walk over every scalar (Unicode `White_Space` at either end).
    var trimmedByScalars: TextSlice {
        var start = -1
        var end = 0
        scalars.forEach { scalar, from, to in
            if !ScalarClass.isWhitespace(scalar) {
                if start < 0 { start = from }
                end = to
            }
            return true
        }
        return start < 0 ? slice(0, 0) : slice(keepingWords: start, end)
    }

    /// The bytes from `start` to `end` as a sub-view (its words are walked by scanning).
    @inlinable
    func slice(_ start: Int, _ end: Int) -> TextSlice {
        guard let base = bytes.baseAddress, end > start else { return .empty }
        return TextSlice(UnsafeBufferPointer(start: base + start, count: end - start))
    }

    /// The bytes from `start` to `end` as a sub-view, keeping the text's word list when it
    /// holds for the part: `start` must end a run of whitespace from the text's start (as in
    /// `trimmed`), and the list is kept only when no word ends past `end`.
    func slice(keepingWords start: Int, _ end: Int) -> TextSlice {
        guard let base = bytes.baseAddress, end > start else { return .empty }
        return TextSlice(
            UnsafeBufferPointer(start: base + start, count: end - start),
            words: wordList?.narrowed(start: start, end: end, leadIsWhitespace: true)
        )
    }

    /// The scalar walker over the bytes.
    var scalars: UTF8Scalars { UTF8Scalars(bytes: bytes) }
}
