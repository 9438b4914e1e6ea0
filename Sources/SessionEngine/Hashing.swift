import ByteBasics

/// The hashes the engine uses for keys, fingerprints and ids: FNV-1a 64 (as `mw_hash`)
/// and a final mix, so keys from several parts do not collide by construction.
enum Hashing {
    /// FNV-1a over `bytes`, continuing from `hash`.
    @inline(__always)
    static func fnv1a(_ bytes: UnsafeRawBufferPointer, _ hash: UInt64 = FNV1a64.modalwatchOffsetBasis) -> UInt64 {
        FNV1a64.hash(bytes, continuing: hash)
    }

    /// FNV-1a over a string's UTF-8, continuing from `hash`.
    static func fnv1a(_ string: String, _ hash: UInt64 = FNV1a64.modalwatchOffsetBasis) -> UInt64 {
        FNV1a64.hash(string, continuing: hash)
    }

    /// One more byte (a separator between parts).
    @inline(__always)
    static func separator(_ hash: UInt64) -> UInt64 {
        var hasher = FNV1a64(continuing: hash)
        hasher.add(0xFF)
        return hasher.value
    }

    /// A strong 64-bit mix (splitmix64's finalizer).
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A rule's private key: the rule's seed (a hash of its id) and its own key.
    @inline(__always)
    static func ruleKey(seed: UInt64, _ key: UInt64) -> UInt64 {
        mix(key ^ mix(seed))
    }
}
