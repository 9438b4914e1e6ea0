extension Word {
    /// A 64-bit FNV-1a hash of the word folded to lowercase (each scalar's Unicode
    /// lowercase mapping, `’` read as `'`): words that `equals(_:)` calls equal
    /// have equal hashes. Allocates nothing.
    public var foldedHash: UInt64 {
        var hash: UInt64 = 1_469_598_103_934_665_603
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 1_099_511_628_211
        }
        text.scalars.forEach { scalar, _, _ in
            if ScalarClass.isApostrophe(scalar) {
                add(0x27)
            } else if scalar.isASCII {
                add(UInt8(truncatingIfNeeded: TextSlice.asciiLower(scalar.value)))
            } else {
                for byte in scalar.properties.lowercaseMapping.utf8 { add(byte) }
            }
            return true
        }
        return hash
    }
}
