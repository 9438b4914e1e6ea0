import AlertText
import Glibc
import ModalwatchABI

/// The words of the current event's texts (`mw_host.words`): each text the event gave
/// (title, message, label, every button's title) is tokenized at most once per event, by
/// the first rule that asks, and every later rule of the event reads the same list.
///
/// The lists are kept in a small table of entries, each with its own buffers (kept from
/// event to event, grown only when a text has more words) and a copy of the bytes it was
/// read from (up to `longestKept`): a text equal to those bytes (an app shows the same
/// alert again) takes the entry's list without a scan. An entry handed out during an event
/// is not given to another text before the event ends, so a list stays where it is for the
/// whole rule call. No allocation in the steady state, nothing for an event no rule asks about.
struct EventWords {
    /// Longer texts are not kept for later events (their copy would be large).
    static let longestKept = 1024

    /// One text's words.
    private struct Entry {
        /// The event (`eventSerial`) the entry was last handed out in; 0 for none.
        var event: UInt64 = 0
        /// The text it was handed out for in that event, as the event gave it.
        var source: UnsafePointer<CChar>?
        var sourceLength = 0
        var words: UnsafeMutablePointer<mw_word>?
        var capacity = 0
        var count = 0
        var flags: UInt32 = 0
        /// A copy of the bytes the words were read from; `textLength` -1 when it holds none.
        var text: UnsafeMutablePointer<UInt8>?
        var textCapacity = 0
        var textLength = -1
    }

    private var entries: UnsafeMutablePointer<Entry>
    private var entryCount: Int
    /// The entry given to a new text next (round robin over the entries not in use).
    private var next = 0
    /// The entry last found for a text of each fingerprint (length, first and last byte): tried first.
    private let hints: UnsafeMutablePointer<Int>
    private static let hintCount = 64

    init() {
        entryCount = 32
        entries = .allocate(capacity: entryCount)
        entries.initialize(repeating: Entry(), count: entryCount)
        hints = .allocate(capacity: Self.hintCount)
        hints.initialize(repeating: 0, count: Self.hintCount)
    }

    /// Frees every buffer (the engine's `deinit`).
    func deallocate() {
        for index in 0..<entryCount {
            entries[index].words?.deallocate()
            entries[index].text?.deallocate()
        }
        entries.deallocate()
        hints.deallocate()
    }

    /// Fills `out` with the words of `text` when it is one of `event`'s texts, as the event
    /// gave it (same pointer and length), reading it now unless this event already has its
    /// list or an entry holds its bytes (`eventSerial` is different for every event judged);
    /// false for any other text.
    mutating func words(of text: mw_str, in event: UnsafePointer<mw_event>, eventSerial: UInt64,
                        into out: UnsafeMutablePointer<mw_words>) -> Bool {
        guard let pointer = text.ptr, text.len > 0, Self.isField(pointer, text.len, of: event) else { return false }
        let entry = find(pointer, text.len, eventSerial: eventSerial)
        out.pointee = mw_words(words: UnsafePointer(entry.pointee.words), count: UInt32(entry.pointee.count),
                               flags: entry.pointee.flags)
        return true
    }

    /// The entry of the text at `pointer`: handed out for it in this event, else holding its
    /// bytes, else a free entry it is read into now.
    private mutating func find(_ pointer: UnsafePointer<CChar>, _ length: Int, eventSerial: UInt64) -> UnsafeMutablePointer<Entry> {
        let bytes = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
        let hint = (length &* 7 &+ Int(bytes[0]) &* 3 &+ Int(bytes[length - 1])) & (Self.hintCount - 1)
        let hinted = entries + hints[hint]
        if hinted.pointee.event == eventSerial && hinted.pointee.source == pointer && hinted.pointee.sourceLength == length {
            return hinted
        }
        if Self.holds(hinted, bytes, length) {
            handOut(hinted, pointer, length, eventSerial)
            return hinted
        }
        for index in 0..<entryCount {
            let entry = entries + index
            if (entry.pointee.event == eventSerial && entry.pointee.source == pointer && entry.pointee.sourceLength == length)
                || Self.holds(entry, bytes, length) {
                handOut(entry, pointer, length, eventSerial)
                hints[hint] = index
                return entry
            }
        }
        let index = freeEntry(eventSerial)
        let entry = entries + index
        Self.read(TextSlice(UnsafeBufferPointer(start: bytes, count: length)), into: entry)
        Self.keep(bytes, length, in: entry)
        handOut(entry, pointer, length, eventSerial)
        hints[hint] = index
        return entry
    }

    /// True when `entry` keeps exactly the `length` bytes at `bytes`.
    @inline(__always)
    private static func holds(_ entry: UnsafeMutablePointer<Entry>, _ bytes: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        guard entry.pointee.textLength == length, let kept = entry.pointee.text else { return false }
        return memcmp(kept, bytes, length) == 0
    }

    private func handOut(_ entry: UnsafeMutablePointer<Entry>, _ pointer: UnsafePointer<CChar>, _ length: Int, _ eventSerial: UInt64) {
        entry.pointee.event = eventSerial
        entry.pointee.source = pointer
        entry.pointee.sourceLength = length
    }

    /// The index of an entry not handed out in this event (the table grows when every one is).
    private mutating func freeEntry(_ eventSerial: UInt64) -> Int {
        for _ in 0..<entryCount {
            let index = next
            next = (next + 1) % entryCount
            if entries[index].event != eventSerial { return index }
        }
        let index = entryCount
        grow()
        next = (index + 1) % entryCount
        return index
    }

    /// Whether `pointer` and `length` are one of the event's texts as it gave them.
    private static func isField(_ pointer: UnsafePointer<CChar>, _ length: Int, of event: UnsafePointer<mw_event>) -> Bool {
        @inline(__always) func same(_ field: mw_str) -> Bool { field.ptr == pointer && field.len == length }
        // Field by field through the pointer: the event is not copied.
        if same(event.pointee.title) || same(event.pointee.message) || same(event.pointee.label) { return true }
        if let buttons = event.pointee.buttons {
            for index in 0..<Int(event.pointee.button_count) where same(buttons[index].title) { return true }
        }
        if let buttons = event.pointee.modal_buttons {
            for index in 0..<Int(event.pointee.modal_button_count) where same(buttons[index].title) { return true }
        }
        return false
    }

    /// Keeps a copy of the bytes `entry`'s words were just read from (none for a long text).
    private static func keep(_ bytes: UnsafePointer<UInt8>, _ length: Int, in entry: UnsafeMutablePointer<Entry>) {
        guard length <= longestKept else {
            entry.pointee.textLength = -1
            return
        }
        if entry.pointee.textCapacity < length {
            entry.pointee.text?.deallocate()
            entry.pointee.textCapacity = max(length, 64)
            entry.pointee.text = .allocate(capacity: entry.pointee.textCapacity)
        }
        entry.pointee.text.unsafelyUnwrapped.update(from: bytes, count: length)
        entry.pointee.textLength = length
    }

    /// Tokenizes `text` into `entry`, growing its buffer when the text has more words.
    private static func read(_ text: TextSlice, into entry: UnsafeMutablePointer<Entry>) {
        entry.pointee.count = 0
        entry.pointee.flags = text.scanWords { word in
            if entry.pointee.count == entry.pointee.capacity {
                let capacity = max(entry.pointee.capacity * 2, 16)
                let grown = UnsafeMutablePointer<mw_word>.allocate(capacity: capacity)
                if let old = entry.pointee.words {
                    grown.moveInitialize(from: old, count: entry.pointee.count)
                    old.deallocate()
                }
                entry.pointee.words = grown
                entry.pointee.capacity = capacity
            }
            (entry.pointee.words.unsafelyUnwrapped + entry.pointee.count).initialize(to: word)
            entry.pointee.count += 1
        }
    }

    /// Twice the entries (an event with more texts than there are); the entries keep their buffers.
    private mutating func grow() {
        let capacity = entryCount * 2
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        grown.moveInitialize(from: entries, count: entryCount)
        (grown + entryCount).initialize(repeating: Entry(), count: capacity - entryCount)
        entries.deallocate()
        entries = grown
        entryCount = capacity
    }
}
