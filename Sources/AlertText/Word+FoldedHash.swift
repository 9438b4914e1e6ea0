import ByteBasics

extension Word {
    /// A 64-bit FNV-1a hash of the word folded to lowercase (each scalar's Unicode
    /// lowercase mapping, `’` read as `'`): words that `equals(_:)` calls equal
    /// have equal hashes. Allocates nothing.
    public var foldedHash: UInt64 {
        // A plain loop over a local: a nested function or closure capturing `hash` would
        // cost a dynamic exclusivity check on every byte.
        var hash = FNV1a64(continuing: FNV1a64.modalwatchOffsetBasis)
        let walker = text.scalars
        var offset = 0
        while offset < text.count {
            let (scalar, width) = walker.scalar(at: offset)
            offset += width
            if ScalarClass.isApostrophe(scalar) {
                hash.add(0x27)
            } else if scalar.isASCII {
                hash.add(UInt8(truncatingIfNeeded: TextSlice.asciiLower(scalar.value)))
            } else {
                Word.hashLowercaseMapping(of: scalar, into: &hash)
            }
        }
        return hash.value
    }

    /// Adds a non-ASCII scalar's lowercase mapping to `hash` (out of line: the property
    /// lookup's resilient types cost the ASCII path nothing then).
    @inline(never)
    private static func hashLowercaseMapping(of scalar: Unicode.Scalar, into hash: inout FNV1a64) {
        hash.add(scalar.properties.lowercaseMapping)
    }
}
