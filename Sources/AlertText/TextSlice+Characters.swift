extension TextSlice {
    /// The number of user-perceived characters (Swift `Character`s, extended
    /// grapheme clusters): `é` written as e + U+0301 is one, a flag or a family
    /// emoji is one, `\r\n` is one. Allocates a `String` for texts over 15 bytes.
    public var characterCount: Int { string.count }

    /// The number of Unicode scalars, counted without allocating.
    public var scalarCount: Int {
        var total = 0
        scalars.forEach { _, _, _ in
            total += 1
            return true
        }
        return total
    }

    /// True when the text has more than `limit` characters (`characterCount`).
    /// Decides from the byte and scalar counts when it can (a character is at
    /// least one scalar, a scalar at least one byte), and only counts characters,
    /// allocating, when the text has more than `limit` scalars.
    public func hasMoreCharacters(than limit: Int) -> Bool {
        guard count > limit, scalarCount > limit else { return false }
        return characterCount > limit
    }
}
