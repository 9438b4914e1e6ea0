import AlertText
import Glibc
import ModalwatchABI

/// The words of the current event's texts (`mw_host.words`, `mw_call.texts`): on the first
/// request of an event, each text the event gave (title, message, label, every button's
/// title) is tokenized into the event's table, and every later rule of the event reads the
/// table (through `mw_call.texts`, with no call).
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
    /// The table of the event's lists a rule call points to (`mw_call.texts`), filled once per
    /// event on the first request; `Engine.judge` marks it not ready before each event.
    let table: UnsafeMutablePointer<mw_event_texts>
    /// The table's lists of button titles (alert and sheet buttons, then modal buttons).
    private var buttonLists: UnsafeMutablePointer<mw_words>
    private var buttonListCapacity = 16

    init() {
        table = .allocate(capacity: 1)
        table.initialize(to: mw_event_texts())
        buttonLists = .allocate(capacity: buttonListCapacity)
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
        table.deallocate()
        buttonLists.deallocate()
    }

    /// Fills `out` with the words of `text` when it is one of `event`'s texts, as the event
    /// gave it (same pointer and length), from the event's table (`mw_call.texts`), filling
    /// the table first when this event has not yet; false for any other text.
    mutating func tableWords(
        of text: mw_str,
        in event: UnsafePointer<mw_event>,
        eventSerial: UInt64,
        into out: UnsafeMutablePointer<mw_words>
    ) -> Bool {
        guard let pointer = text.ptr, text.len > 0 else { return false }
        if table.pointee.ready == 0 { fill(event, eventSerial: eventSerial) }
        let fields = event.pointee
        @inline(__always) func same(_ field: mw_str) -> Bool { field.ptr == pointer && field.len == text.len }
        let lists = table.pointee
        if same(fields.title) {
            out.pointee = lists.title
            return true
        }
        if same(fields.message) {
            out.pointee = lists.message
            return true
        }
        if same(fields.label) {
            out.pointee = lists.label
            return true
        }
        if let buttons = fields.buttons {
            for index in 0..<Int(fields.button_count) where same(buttons[index].title) {
                out.pointee = buttonLists[index]
                return true
            }
        }
        if let buttons = fields.modal_buttons {
            for index in 0..<Int(fields.modal_button_count) where same(buttons[index].title) {
                out.pointee = buttonLists[Int(fields.button_count) + index]
                return true
            }
        }
        return false
    }

    /// Reads every text of `event` into the table (each text through `find`: a text an entry
    /// keeps is not scanned again) and marks it ready.
    private mutating func fill(_ event: UnsafePointer<mw_event>, eventSerial: UInt64) {
        let fields = event.pointee
        let buttonCount = fields.buttons == nil ? 0 : Int(fields.button_count)
        let modalCount = fields.modal_buttons == nil ? 0 : Int(fields.modal_button_count)
        if buttonCount + modalCount > buttonListCapacity {
            buttonLists.deallocate()
            buttonListCapacity = max(buttonCount + modalCount, buttonListCapacity * 2)
            buttonLists = .allocate(capacity: buttonListCapacity)
        }
        table.pointee.title = list(fields.title, eventSerial)
        table.pointee.message = list(fields.message, eventSerial)
        table.pointee.label = list(fields.label, eventSerial)
        for index in 0..<buttonCount { buttonLists[index] = list(fields.buttons[index].title, eventSerial) }
        for index in 0..<modalCount {
            buttonLists[buttonCount + index] = list(fields.modal_buttons[index].title, eventSerial)
        }
        table.pointee.buttons = UnsafePointer(buttonLists)
        table.pointee.modal_buttons = UnsafePointer(buttonLists + buttonCount)
        table.pointee.ready = 1
    }

    /// The words of one text of the event (none when it is absent or empty).
    private mutating func list(_ text: mw_str, _ eventSerial: UInt64) -> mw_words {
        guard let pointer = text.ptr, text.len > 0 else { return mw_words(words: nil, count: 0, flags: 0) }
        let entry = find(pointer, text.len, eventSerial: eventSerial)
        return mw_words(
            words: UnsafePointer(entry.pointee.words),
            count: UInt32(entry.pointee.count),
            flags: entry.pointee.flags
        )
    }

    /// The entry of the text at `pointer`: handed out for it in this event, else holding its
    /// bytes, else a free entry it is read into now.
    private mutating func find(
        _ pointer: UnsafePointer<CChar>,
        _ length: Int,
        eventSerial: UInt64
    ) -> UnsafeMutablePointer<Entry> {
        let bytes = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
        let hint = (length &* 7 &+ Int(bytes[0]) &* 3 &+ Int(bytes[length - 1])) & (Self.hintCount - 1)
        let hinted = entries + hints[hint]
        if hinted.pointee.event == eventSerial && hinted.pointee.source == pointer
            && hinted.pointee.sourceLength == length
        {
            return hinted
        }
        if Self.holds(hinted, bytes, length) {
            handOut(hinted, pointer, length, eventSerial)
            return hinted
        }
        for index in 0..<entryCount {
            let entry = entries + index
            if (entry.pointee.event == eventSerial && entry.pointee.source == pointer
                && entry.pointee.sourceLength == length)
                || Self.holds(entry, bytes, length)
            {
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
    private static func holds(
        _ entry: UnsafeMutablePointer<Entry>,
        _ bytes: UnsafePointer<UInt8>,
        _ length: Int
    ) -> Bool {
        guard entry.pointee.textLength == length, let kept = entry.pointee.text else { return false }
        return memcmp(kept, bytes, length) == 0
    }

    private func handOut(
        _ entry: UnsafeMutablePointer<Entry>,
        _ pointer: UnsafePointer<CChar>,
        _ length: Int,
        _ eventSerial: UInt64
    ) {
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
