extension Word {
    /// A 64-bit FNV-1a hash of the word folded to lowercase (each scalar's Unicode
    /// lowercase mapping, `’` read as `'`): words that `equals(_:)` calls equal
    /// have equal hashes. Allocates nothing.
    public var foldedHash: UInt64 {
        // A plain loop over a local: a nested function or closure capturing `hash` would
        // cost a dynamic exclusivity check on every byte.
        var hash: UInt64 = 1_469_598_103_934_665_603
        let walker = text.scalars
        var offset = 0
        while offset < text.count {
            let (scalar, width) = walker.scalar(at: offset)
            offset += width
            if ScalarClass.isApostrophe(scalar) {
                hash = (hash ^ 0x27) &* 1_099_511_628_211
            } else if scalar.isASCII {
                hash = (hash ^ UInt64(TextSlice.asciiLower(scalar.value))) &* 1_099_511_628_211
            } else {
                hash = Word.hashLowercaseMapping(of: scalar, into: hash)
            }
        }
        return hash
    }

    /// FNV-1a of a non-ASCII scalar's lowercase mapping, continued from `hash` (out of
    /// line: the property lookup's resilient types cost the ASCII path nothing then).
    @inline(never)
    private static func hashLowercaseMapping(of scalar: Unicode.Scalar, into hash: UInt64) -> UInt64 {
        var hash = hash
        for byte in scalar.properties.lowercaseMapping.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        return hash
    }
}
