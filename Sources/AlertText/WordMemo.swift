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
///
/// No reference counting and no allocation in the steady state: each slot keeps its
/// buffers (the text's bytes, its words) and reuses them for the next text it holds,
/// growing them only when a text needs more. A walk holds a `WordList` (plain
/// pointers and the slot's generation, no reference); when the slot has been given
/// to another text since, the walk notices by the generation and goes on by scanning.
final class WordMemo {
    /// Entries kept (round robin); an alert's title, message, button titles and a few derived texts fit.
    private static let capacity = 16
    /// Longer texts are walked without the memo (their copy and list would be large).
    static let longestText = 1024

    // Unsafe storage: a class's stored `var`s would cost a dynamic exclusivity check per
    // access. `state` holds the next slot to fill and the slot hit last.
    private let slots: UnsafeMutablePointer<WordSlot>
    private let state: UnsafeMutablePointer<Int>
    /// The slot last used for a text of each fingerprint (`hintIndex`): tried first.
    private let hints: UnsafeMutablePointer<Int>
    private static let hintCount = 64

    private init() {
        slots = .allocate(capacity: WordMemo.capacity)
        slots.initialize(repeating: WordSlot(), count: WordMemo.capacity)
        state = .allocate(capacity: 2)
        state.initialize(repeating: 0, count: 2)
        hints = .allocate(capacity: WordMemo.hintCount)
        hints.initialize(repeating: 0, count: WordMemo.hintCount)
    }

    deinit {
        for index in 0..<WordMemo.capacity {
            slots[index].text?.deallocate()
            slots[index].entries?.deallocate()
        }
        slots.deallocate()
        state.deallocate()
        hints.deallocate()
    }

    /// The word list of `text`, from the memo or made now; nil for an empty or long text
    /// (walk it directly). The list stays readable while its slot's generation is unchanged.
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
    /// tried first, then the others from the newest; a text not found is walked into the
    /// oldest slot.
    private func list(for text: TextSlice) -> WordList {
        let length = text.count
        let base = text.bytes.baseAddress.unsafelyUnwrapped
        // Fingerprint: length, first and last byte (`Cancel` and `Delete` differ).
        let hint = (length &* 7 &+ Int(base[0]) &* 3 &+ Int(base[length - 1])) & (WordMemo.hintCount - 1)
        let hinted = hints[hint]
        if holds(slots + hinted, base, length) { return WordList(slots + hinted) }
        var slot = state[1]
        for _ in 0..<WordMemo.capacity {
            if holds(slots + slot, base, length) {
                hints[hint] = slot
                return WordList(slots + slot)
            }
            slot = slot == 0 ? WordMemo.capacity - 1 : slot - 1
        }
        slot = state[0]
        (slots + slot).pointee.fill(from: text)
        state[0] = (slot + 1) % WordMemo.capacity
        state[1] = slot
        hints[hint] = slot
        return WordList(slots + slot)
    }

    /// True when `slot` was made from the `length` bytes at `text`.
    @inline(__always)
    private func holds(_ slot: UnsafeMutablePointer<WordSlot>, _ text: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        guard slot.pointee.length == length else { return false }
        let stored = UnsafeRawPointer(slot.pointee.text.unsafelyUnwrapped)
        let other = UnsafeRawPointer(text)
        guard length <= 64 else { return memcmp(stored, other, length) == 0 }
        // Short (most titles and buttons): eight bytes at a time, inline.
        var offset = 0
        while offset + 8 <= length {
            guard stored.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == other.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < length {
            guard stored.load(fromByteOffset: offset, as: UInt8.self) == other.load(fromByteOffset: offset, as: UInt8.self)
            else { return false }
            offset += 1
        }
        return true
    }
}

/// One memo slot: a text's bytes and its words as a walk yields them, stored as offsets
/// into the text so that any copy of the same bytes can use them. The buffers are kept
/// when the slot is given to another text (and grown when too small).
struct WordSlot {
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

    /// The text's length in bytes; -1 while the slot is empty.
    var length = -1
    /// A copy of the text's bytes.
    var text: UnsafeMutablePointer<UInt8>?
    var textCapacity = 0
    /// Its words, in order.
    var entries: UnsafeMutablePointer<Entry>?
    var entryCapacity = 0
    var count = 0
    /// Whether a quotation is still open at the end of the text.
    var endsInsideQuotation = false
    /// Raised each time the slot is given to another text: a `WordList` of an older
    /// generation no longer describes it.
    var generation: UInt64 = 0

    /// Walks `text` (1 to `WordMemo.longestText` bytes) into this slot.
    mutating func fill(from text: TextSlice) {
        generation &+= 1
        if textCapacity < text.count {
            self.text?.deallocate()
            textCapacity = max(text.count, 64)
            self.text = .allocate(capacity: textCapacity)
        }
        self.text.unsafelyUnwrapped.update(from: text.bytes.baseAddress.unsafelyUnwrapped, count: text.count)
        length = text.count
        count = 0
        var walk = Words.Iterator(text)
        while let word = walk.next() {
            if count == entryCapacity { grow() }
            (entries.unsafelyUnwrapped + count).initialize(
                to: Entry(
                    offset: Int32(word.offset),
                    length: Int32(word.text.count),
                    quotation: Int32(word.quotation),
                    shape: word.shape,
                    startsSentence: word.startsSentence,
                    insideQuotationAfter: walk.isInsideQuotation
                )
            )
            count += 1
        }
        endsInsideQuotation = walk.isInsideQuotation
    }

    /// Doubles the room for words (entries are plain values: moved by copying).
    private mutating func grow() {
        let capacity = max(entryCapacity * 2, 16)
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        if let entries {
            grown.moveInitialize(from: entries, count: count)
            entries.deallocate()
        }
        entries = grown
        entryCapacity = capacity
    }
}

/// A walk's hold on one memo slot: readable while the slot's generation is the one
/// it was taken at (`isCurrent`). Plain pointers: no reference counting. Valid only
/// on the thread that took it (the memo is that thread's).
struct WordList {
    /// The slot, in the memo (which lives as long as its thread).
    private let slot: UnsafePointer<WordSlot>
    /// The slot's generation when the list was taken.
    private let generation: UInt64
    /// The words, when the list was taken.
    let entries: UnsafePointer<WordSlot.Entry>
    /// How many words.
    let count: Int
    /// Whether a quotation is still open at the end of the text.
    let endsInsideQuotation: Bool

    init(_ slot: UnsafePointer<WordSlot>) {
        self.slot = slot
        generation = slot.pointee.generation
        // A slot with no words may have no buffer yet: any address will do, nothing is read.
        entries = UnsafePointer(slot.pointee.entries) ?? UnsafePointer(bitPattern: MemoryLayout<WordSlot.Entry>.alignment)!
        count = slot.pointee.count
        endsInsideQuotation = slot.pointee.endsInsideQuotation
    }

    /// True while the slot still holds the text the list was taken for.
    @inline(__always)
    var isCurrent: Bool { slot.pointee.generation == generation }
}
