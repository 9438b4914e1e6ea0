extension TextSlice {
    /// True when both texts are the same scalar for scalar ignoring case (each
    /// scalar's Unicode lowercase mapping), with `'` and `’` the same apostrophe.
    /// Allocates nothing for ASCII; a non-ASCII scalar that differs is compared
    /// through its lowercase mapping (a small string, held inline).
    public func sameWordIgnoringCase(_ other: TextSlice) -> Bool {
        let mine = scalars
        let theirs = other.scalars
        var left = 0
        var right = 0
        while left < count, right < other.count {
            let (a, aWidth) = mine.scalar(at: left)
            let (b, bWidth) = theirs.scalar(at: right)
            left += aWidth
            right += bWidth
            if a == b { continue }
            if ScalarClass.isApostrophe(a) && ScalarClass.isApostrophe(b) { continue }
            if a.isASCII && b.isASCII {
                if TextSlice.asciiLower(a.value) != TextSlice.asciiLower(b.value) { return false }
                continue
            }
            if a.properties.lowercaseMapping != b.properties.lowercaseMapping { return false }
        }
        return left == count && right == other.count
    }

    /// True when the text equals `literal` ignoring ASCII case, with `'` and `’`
    /// the same; `literal` is lowercase ASCII.
    func equalsLowercaseASCII(_ literal: StaticString) -> Bool {
        guard literal.hasPointerRepresentation else { return false }
        let other = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        // Most comparisons fail at the first byte: decide those without walking scalars.
        if let lead = other.first, lead != 0x27 {
            guard count > 0, TextSlice.asciiLower(UInt32(bytes[0])) == UInt32(lead) else { return false }
        }
        var offset = 0
        var index = 0
        let walker = scalars
        while offset < count {
            guard index < other.count else { return false }
            let (scalar, width) = walker.scalar(at: offset)
            offset += width
            let expected = UInt32(other[index])
            index += 1
            if expected == 0x27, ScalarClass.isApostrophe(scalar) { continue }
            guard scalar.isASCII, TextSlice.asciiLower(scalar.value) == expected else { return false }
        }
        return index == other.count
    }

    /// The ASCII lowercase of a scalar value (others unchanged).
    static func asciiLower(_ value: UInt32) -> UInt32 {
        value >= 0x41 && value <= 0x5A ? value | 0x20 : value
    }
}
