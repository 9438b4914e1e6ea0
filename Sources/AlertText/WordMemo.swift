#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The words of the texts walked last on this thread, so that a text walked again
/// (the same alert title, judged by one rule after another, or shown again in a
/// later event) is read from its list instead of being tokenized again.
///
/// It is a pure cache: an entry is used only for a text whose bytes equal the bytes
/// it was made from (they are compared, not just the address, since a host reuses
/// its buffers), and the list holds exactly what a walk yields. Each thread has its
/// own memo in thread-local storage, made on first use and freed when the thread
/// ends; nothing in it is shared between threads, so rules called from several
/// threads at once each see their own.
final class WordMemo {
    /// Entries kept (round robin); an alert's title, message, button titles and a few derived texts fit.
    private static let capacity = 16
    /// Longer texts are walked without the memo (their copy and list would be large).
    static let longestText = 1024

    // Unsafe storage: a class's stored `var`s would cost a dynamic exclusivity check per
    // access. Per slot: the list, and its text's length and bytes (to compare without
    // touching the list); `state` holds the next slot to fill and the slot hit last.
    private let lists: UnsafeMutablePointer<WordList?>
    private let lengths: UnsafeMutablePointer<Int>
    private let texts: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private let state: UnsafeMutablePointer<Int>
    /// The slot last used for a text of each fingerprint (`hintIndex`): tried first.
    private let hints: UnsafeMutablePointer<Int>
    private static let hintCount = 64

    private init() {
        lists = .allocate(capacity: WordMemo.capacity)
        lists.initialize(repeating: nil, count: WordMemo.capacity)
        lengths = .allocate(capacity: WordMemo.capacity)
        lengths.initialize(repeating: -1, count: WordMemo.capacity)
        texts = .allocate(capacity: WordMemo.capacity)
        texts.initialize(repeating: nil, count: WordMemo.capacity)
        state = .allocate(capacity: 2)
        state.initialize(repeating: 0, count: 2)
        hints = .allocate(capacity: WordMemo.hintCount)
        hints.initialize(repeating: 0, count: WordMemo.hintCount)
    }

    deinit {
        lists.deinitialize(count: WordMemo.capacity)
        lists.deallocate()
        lengths.deallocate()
        texts.deallocate()
        state.deallocate()
        hints.deallocate()
    }

    /// The word list of `text`, from the memo or made now; nil for an empty or long text
    /// (walk it directly).
    static func words(of text: TextSlice) -> WordList? {
        let count = text.count
        guard count > 0, count <= longestText, let memo = current else { return nil }
        // The thread's reference keeps the memo alive: no retain for the lookup.
        return memo._withUnsafeGuaranteedRef { $0.list(for: text) }
    }

    /// This thread's memo, made on first use.
    private static var current: Unmanaged<WordMemo>? {
        if let existing = pthread_getspecific(key) { return Unmanaged.fromOpaque(existing) }
        let owned = Unmanaged.passRetained(WordMemo())  // the thread's reference, released when it ends
        guard pthread_setspecific(key, owned.toOpaque()) == 0 else {
            owned.release()
            return nil
        }
        return owned
    }

    /// The thread-local slot of the memo; the memo is released when its thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<WordMemo>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    /// The list of `text` (not empty): the slot last used for a text of its fingerprint is
    /// tried first, then the others from the newest; a text not found is walked and its
    /// list replaces the oldest.
    private func list(for text: TextSlice) -> WordList {
        let length = text.count
        let base = text.bytes.baseAddress.unsafelyUnwrapped
        // Fingerprint: length, first and last byte (`Cancel` and `Delete` differ).
        let hint = (length &* 7 &+ Int(base[0]) &* 3 &+ Int(base[length - 1])) & (WordMemo.hintCount - 1)
        if let found = listed(text: base, length: length, at: hints[hint]) { return found }
        var slot = state[1]
        for _ in 0..<WordMemo.capacity {
            if let found = listed(text: base, length: length, at: slot) {
                hints[hint] = slot
                return found
            }
            slot = slot == 0 ? WordMemo.capacity - 1 : slot - 1
        }
        let list = WordList(text)
        slot = state[0]
        lists[slot] = list
        lengths[slot] = length
        texts[slot] = UnsafePointer(list.bytes)
        state[0] = (slot + 1) % WordMemo.capacity
        state[1] = slot
        hints[hint] = slot
        return list
    }

    /// The list in `slot` when it was made from the `length` bytes at `text`.
    private func listed(text: UnsafePointer<UInt8>, length: Int, at slot: Int) -> WordList? {
        guard lengths[slot] == length, memcmp(texts[slot].unsafelyUnwrapped, text, length) == 0 else { return nil }
        return lists[slot]
    }
}

/// One text's words as a walk yields them, stored as offsets into the text so that
/// any copy of the same bytes can use them.
final class WordList {
    /// One word, relative to the text's start.
    struct Entry {
        var offset: Int32
        var length: Int32
        var quotation: Int32
        var shape: WordShape
        var startsSentence: Bool
        /// Whether a quotation is open after this word was read (`Words.Iterator.isInsideQuotation`).
        var insideQuotationAfter: Bool
    }

    // `let`s: read without dynamic exclusivity checks; an entry is replaced, never changed.

    /// A copy of the text's bytes (never moves; freed with the list).
    let bytes: UnsafeMutablePointer<UInt8>
    /// Its words, in order.
    let words: [Entry]
    /// Whether a quotation is still open at the end of the text.
    let endsInsideQuotation: Bool

    /// Walks `text` and keeps what the walk yields.
    init(_ text: TextSlice) {
        bytes = .allocate(capacity: max(text.count, 1))
        if let source = text.bytes.baseAddress { bytes.initialize(from: source, count: text.count) }
        var words: [Entry] = []
        var walk = Words.Iterator(text)
        while let word = walk.next() {
            words.append(
                Entry(
                    offset: Int32(word.offset),
                    length: Int32(word.text.count),
                    quotation: Int32(word.quotation),
                    shape: word.shape,
                    startsSentence: word.startsSentence,
                    insideQuotationAfter: walk.isInsideQuotation
                )
            )
        }
        self.words = words
        endsInsideQuotation = walk.isInsideQuotation
    }

    deinit {
        bytes.deallocate()
    }
}
