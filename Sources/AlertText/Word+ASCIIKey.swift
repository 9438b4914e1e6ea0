extension Word {
    /// The word folded for comparison with a short ASCII word list, packed into one integer:
    /// its bytes lowercased (ASCII), every apostrophe (`'`, `’`) as `'`, the first byte in
    /// the low byte; nil when it has a scalar other than ASCII and apostrophes, or more than
    /// 8 of them. Equal keys mean `equals(literal)` for an ASCII literal of up to 8 bytes,
    /// so a list is one pass over the word and an integer `switch`, with no table to load.
    var asciiKey: UInt64? {
        let bytes = text.bytes
        var key: UInt64 = 0
        var shift: UInt64 = 0
        var offset = 0
        while offset < bytes.count {
            guard shift < 64 else { return nil }
            var byte = bytes[offset]
            if byte < 0x80 {
                if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
                offset += 1
            } else if byte == 0xE2, offset + 2 < bytes.count, bytes[offset + 1] == 0x80, bytes[offset + 2] == 0x99 {
                byte = 0x27  // ’ (U+2019)
                offset += 3
            } else {
                return nil
            }
            key |= UInt64(byte) << shift
            shift += 8
        }
        return key
    }

    /// True when the word's first byte is an ASCII letter (either case) whose bit is set in
    /// `letters` (bit 0 `a` … bit 25 `z`): a list's first letters, checked before its key.
    @inline(__always)
    func startsWithLetter(in letters: UInt32) -> Bool {
        guard let lead = text.bytes.first else { return false }
        let lower = lead | 0x20
        guard lower >= 0x61 && lower <= 0x7A else { return false }
        return letters & (1 << UInt32(lower - 0x61)) != 0
    }
}
