/// The member loop's guess of the next key: the key that followed the previous one last time
/// (producers write an event type's keys in one order), checked with two word compares against
/// the bytes after the key's opening quote (the name, its closing quote and the `:`). A hit
/// skips the search for the closing quote and the match by length; a miss costs those two
/// compares and goes the usual way. Storage of `EventScratch`, allocated once.
struct KeyGuess {
    /// A key's name followed by `":`, as it appears after its opening quote: two little-endian
    /// words and a mask for each (the pattern's `count` bytes).
    struct Pattern {
        var w0: UInt64
        var mask0: UInt64
        var w1: UInt64
        var mask1: UInt64
        /// Bytes of the pattern (the name's and 2); 0 when the pattern does not fit 16 bytes.
        var count: Int
    }

    /// Indexes of the tables: a `FieldKey` at its raw value, an `ItemKey` at `itemBase` plus its
    /// raw value; `firstFieldMember` and `firstItemMember` stand for "no member yet".
    static let capacity = 64
    static let itemBase = 32
    static let firstFieldMember = 31
    static let firstItemMember = 63
    /// "No guess" in `next`.
    static let none: UInt8 = 0xFF

    /// For each index, the index of the key that followed last (`none` when unknown).
    let next: UnsafeMutablePointer<UInt8>
    /// Each key's pattern, at its index.
    let patterns: UnsafeMutablePointer<Pattern>

    init() {
        next = .allocate(capacity: Self.capacity)
        next.initialize(repeating: Self.none, count: Self.capacity)
        patterns = .allocate(capacity: Self.capacity)
        patterns.initialize(repeating: Pattern(w0: 0, mask0: 0, w1: 0, mask1: 0, count: 0), count: Self.capacity)
        for key in FieldKey.allCases { patterns[Int(key.rawValue)] = Self.pattern(key.name) }
        for key in ItemKey.allCases { patterns[Self.itemBase + Int(key.rawValue)] = Self.pattern(key.name) }
    }

    /// Frees the storage.
    func deallocate() {
        next.deallocate()
        patterns.deallocate()
    }

    /// The pattern of a key named `name`.
    private static func pattern(_ name: StaticString) -> Pattern {
        var bytes = Array(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(0x22)
        bytes.append(UInt8(ascii: ":"))
        guard bytes.count <= 16 else { return Pattern(w0: 0, mask0: 0, w1: 0, mask1: 0, count: 0) }
        var w: (UInt64, UInt64) = (0, 0)
        var m: (UInt64, UInt64) = (0, 0)
        for (i, byte) in bytes.enumerated() {
            let shift = UInt64((i & 7) * 8)
            if i < 8 {
                w.0 |= UInt64(byte) << shift
                m.0 |= 0xFF << shift
            } else {
                w.1 |= UInt64(byte) << shift
                m.1 |= 0xFF << shift
            }
        }
        return Pattern(w0: w.0, mask0: m.0, w1: w.1, mask1: m.1, count: bytes.count)
    }
}
