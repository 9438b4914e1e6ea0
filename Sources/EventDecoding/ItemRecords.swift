/// What pass 1 read of one array of objects (`buttons` or `text_fields`), so that pass 2 checks its
/// items without scanning them again: each item's place and, for an object, its fields' slots. It
/// holds up to one item past the array's limit (pass 2 rejects that one as too many); later items
/// are validated and not recorded. Storage of `EventScratch`, allocated once.
struct ItemRecords {
    /// Where one item is, and which fields of `ItemKey` it had.
    struct Item {
        /// The offset of the item's first byte.
        var start: Int
        /// The offset after the item.
        var end: Int
        /// The fields recorded (`ItemKey.bit`); meaningful only for an object.
        var present: UInt32
        /// True when the item is a JSON object.
        var isObject: Bool
    }

    let items: UnsafeMutablePointer<Item>
    /// `capacity × ItemKey.allCases.count` slots, item by item.
    let slots: UnsafeMutablePointer<FieldSlot>
    /// Items it can hold: the array's limit plus one.
    let capacity: Int

    static let slotsPerItem = ItemKey.allCases.count

    init(limit: Int) {
        capacity = limit + 1
        items = .allocate(capacity: capacity)
        items.initialize(repeating: Item(start: 0, end: 0, present: 0, isObject: false), count: capacity)
        slots = .allocate(capacity: capacity * Self.slotsPerItem)
        slots.initialize(repeating: .empty, count: capacity * Self.slotsPerItem)
    }

    /// The slots of item `index`, indexed by `ItemKey.rawValue`.
    @inline(__always)
    func slots(of index: Int) -> UnsafeMutablePointer<FieldSlot> { slots + index &* Self.slotsPerItem }

    /// Frees the storage; the records must not be used afterwards.
    func deallocate() {
        items.deallocate()
        slots.deallocate()
    }
}
