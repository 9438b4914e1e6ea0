import CByteClasses
import ModalwatchABI

/// The decoder's reusable storage, allocated once: the event it fills, the arena for unescaped strings,
/// the button buffers, the field slots, the records of array items and the quote bitmap. Owned (and
/// freed) by `EventDecoder`, which keeps it behind a pointer: the reader refers to it, never copies it.
@usableFromInline
struct EventScratch {
    /// The limits in force.
    let limits: EventLimits
    /// String values of the current event that `EventReader.readValue` left to the validating
    /// scan (an escape or a byte that is not printable ASCII); 0 when every known field's string
    /// was plain printable ASCII.
    @usableFromInline var validatedStrings = 0
    /// Room to unescape a key: a key whose escaped form is longer cannot unescape to a known key
    /// (an escape of at most 6 bytes yields at least 1, and known keys have at most 15 bytes).
    static let keyCapacity = 96

    /// The event handed to the callback.
    let event: UnsafeMutablePointer<mw_event>
    /// Unescaped strings of the current event.
    let arena: UnsafeMutablePointer<UInt8>
    let arenaCapacity: Int
    let buttons: UnsafeMutablePointer<mw_button>
    let modalButtons: UnsafeMutablePointer<mw_modal_button>
    let buttonCapacity: Int
    /// Pass 1's record of the top-level fields, indexed by `FieldKey.rawValue`.
    let slots: UnsafeMutablePointer<FieldSlot>
    /// Pass 1's record of the items of `buttons` and of `text_fields`.
    let buttonItems: ItemRecords
    let textFieldItems: ItemRecords
    /// Where an escaped key is unescaped before it is matched.
    let keyBuffer: UnsafeMutablePointer<UInt8>
    /// The current event's `locale`, normalized (`mw_event.locale` points here).
    let localeBuffer: UnsafeMutablePointer<UInt8>
    /// A copy of a payload's last `tailBytes` bytes, zero after them (`tailCapacity` in all): where
    /// word loads near the payload's end read (`EventReader.word(at:)`), so they need no byte loop.
    let tail: UnsafeMutablePointer<UInt8>
    static let tailBytes = 16
    static let tailCapacity = 32
    /// The quote bitmap of the bytes classified last (`EventReader.classify(from:)`): bit k of byte
    /// k / 8 for the k-th byte from where the classification started.
    let quotes: UnsafeMutablePointer<UInt8>
    /// The most bytes one classification covers (a multiple of 16); a longer event is classified
    /// again where the walk reaches the end of what was classified.
    static let classifiedBytes = 2048
    static let quotesCapacity = classifiedBytes / 8 + 16
    /// The member loop's key guesses.
    let keyGuess: KeyGuess

    init(limits: EventLimits) {
        self.limits = limits
        event = .allocate(capacity: 1)
        event.initialize(to: Self.absentEvent())  // type unknown: `fill` clears what each type set
        arenaCapacity = limits.maxEventBytes
        arena = .allocate(capacity: arenaCapacity)
        buttonCapacity = limits.maxButtons
        buttons = .allocate(capacity: buttonCapacity)
        buttons.initialize(repeating: mw_button(), count: buttonCapacity)
        modalButtons = .allocate(capacity: buttonCapacity)
        modalButtons.initialize(repeating: mw_modal_button(), count: buttonCapacity)
        slots = .allocate(capacity: FieldKey.allCases.count)
        slots.initialize(repeating: .empty, count: FieldKey.allCases.count)
        buttonItems = ItemRecords(limit: limits.maxButtons)
        textFieldItems = ItemRecords(limit: limits.maxTextFields)
        keyBuffer = .allocate(capacity: Self.keyCapacity)
        localeBuffer = .allocate(capacity: LocaleTag.maxBytes)
        tail = .allocate(capacity: Self.tailCapacity)
        tail.initialize(repeating: 0, count: Self.tailCapacity)
        quotes = .allocate(capacity: Self.quotesCapacity)
        quotes.initialize(repeating: 0xFF, count: Self.quotesCapacity)
        keyGuess = KeyGuess()
    }

    /// Frees everything; the scratch must not be used afterwards.
    func deallocate() {
        event.deallocate()
        arena.deallocate()
        buttons.deallocate()
        modalButtons.deallocate()
        slots.deallocate()
        buttonItems.deallocate()
        textFieldItems.deallocate()
        keyBuffer.deallocate()
        localeBuffer.deallocate()
        tail.deallocate()
        quotes.deallocate()
        keyGuess.deallocate()
    }

    /// An event that carries nothing: NULL strings, zero counts, MW_ABSENT enums and booleans.
    static func absentEvent() -> mw_event {
        var e = mw_event()
        e.button = MW_ABSENT
        e.via = MW_ABSENT
        e.unsaved_changes = MW_ABSENT
        e.confirmed = MW_ABSENT
        e.in_popover = MW_ABSENT
        e.from_popover = MW_ABSENT
        e.style = MW_ABSENT
        e.transition = MW_ABSENT
        e.size_class = MW_ABSENT
        e.device = MW_ABSENT
        e.control = MW_ABSENT
        e.destructive = MW_ABSENT
        e.task_state = MW_ABSENT
        return e
    }
}
