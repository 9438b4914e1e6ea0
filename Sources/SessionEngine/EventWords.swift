import AlertText
import ModalwatchABI

/// The words of the current event's texts (`mw_host.words`): each text the event gave
/// (title, message, label, every button's title) is tokenized at most once per event, by
/// the first rule that asks, and every later rule of the event reads the same list.
///
/// Each text has a slot of its own whose buffer is kept from event to event (grown only
/// when a text has more words), so a list handed to a rule stays where it is until the
/// event ends, whatever other text is tokenized meanwhile. No allocation in the steady
/// state, and nothing at all for an event no rule asks about.
struct EventWords {
    /// One text's words.
    private struct Slot {
        /// The event (`eventSerial`) the slot's words were read for; 0 for none.
        var event: UInt64 = 0
        var words: UnsafeMutablePointer<mw_word>?
        var capacity = 0
        var count = 0
        var flags: UInt32 = 0
    }

    /// Title, message, label, then the buttons, then the modal buttons.
    private static let fixedSlots = 3
    private var slots: UnsafeMutablePointer<Slot>
    private var slotCount: Int

    init() {
        slotCount = EventWords.fixedSlots + 8
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: Slot(), count: slotCount)
    }

    /// Frees every buffer (the engine's `deinit`).
    func deallocate() {
        for index in 0..<slotCount { slots[index].words?.deallocate() }
        slots.deallocate()
    }

    /// Fills `out` with the words of `text` when it is one of `event`'s texts, as the event
    /// gave it (same pointer and length), reading it now unless it was read for this event
    /// (`eventSerial`, different for every event judged); false for any other text.
    mutating func words(of text: mw_str, in event: UnsafePointer<mw_event>, eventSerial: UInt64,
                        into out: UnsafeMutablePointer<mw_words>) -> Bool {
        guard let pointer = text.ptr, text.len > 0, let index = Self.slotIndex(of: pointer, text.len, in: event) else {
            return false
        }
        if index >= slotCount { grow(to: index + 1) }
        let slot = slots + index
        if slot.pointee.event != eventSerial {
            Self.read(TextSlice(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                                    count: text.len)), into: slot)
            slot.pointee.event = eventSerial
        }
        out.pointee = mw_words(words: UnsafePointer(slot.pointee.words), count: UInt32(slot.pointee.count),
                               flags: slot.pointee.flags)
        return true
    }

    /// Which of the event's texts `pointer` and `length` are, as a slot index.
    private static func slotIndex(of pointer: UnsafePointer<CChar>, _ length: Int, in event: UnsafePointer<mw_event>) -> Int? {
        @inline(__always) func same(_ field: mw_str) -> Bool { field.ptr == pointer && field.len == length }
        let fields = event.pointee
        if same(fields.title) { return 0 }
        if same(fields.message) { return 1 }
        if same(fields.label) { return 2 }
        if let buttons = fields.buttons {
            for index in 0..<Int(fields.button_count) where same(buttons[index].title) { return fixedSlots + index }
        }
        if let buttons = fields.modal_buttons {
            for index in 0..<Int(fields.modal_button_count) where same(buttons[index].title) {
                return fixedSlots + Int(fields.button_count) + index
            }
        }
        return nil
    }

    /// Tokenizes `text` into `slot`, growing its buffer when the text has more words.
    private static func read(_ text: TextSlice, into slot: UnsafeMutablePointer<Slot>) {
        slot.pointee.count = 0
        slot.pointee.flags = text.scanWords { word in
            if slot.pointee.count == slot.pointee.capacity {
                let capacity = max(slot.pointee.capacity * 2, 16)
                let grown = UnsafeMutablePointer<mw_word>.allocate(capacity: capacity)
                if let old = slot.pointee.words {
                    grown.moveInitialize(from: old, count: slot.pointee.count)
                    old.deallocate()
                }
                slot.pointee.words = grown
                slot.pointee.capacity = capacity
            }
            (slot.pointee.words.unsafelyUnwrapped + slot.pointee.count).initialize(to: word)
            slot.pointee.count += 1
        }
    }

    /// Room for `count` slots (an event with more buttons than any before); the slots keep their buffers.
    private mutating func grow(to count: Int) {
        let capacity = max(count, slotCount * 2)
        let grown = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        grown.moveInitialize(from: slots, count: slotCount)
        (grown + slotCount).initialize(repeating: Slot(), count: capacity - slotCount)
        slots.deallocate()
        slots = grown
        slotCount = capacity
    }
}
