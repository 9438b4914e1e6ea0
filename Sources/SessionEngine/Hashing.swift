/// The hashes the engine uses for keys, fingerprints and ids: FNV-1a 64 (as `mw_hash`)
/// and a final mix, so keys from several parts do not collide by construction.
enum Hashing {
    static let offset: UInt64 = 1469598103934665603
    static let prime: UInt64 = 1099511628211

    /// FNV-1a over `bytes`, continuing from `hash`.
    @inline(__always)
    static func fnv1a(_ bytes: UnsafeRawBufferPointer, _ hash: UInt64 = offset) -> UInt64 {
        var h = hash
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* prime
        }
        return h
    }

    /// FNV-1a over a string's UTF-8, continuing from `hash`.
    static func fnv1a(_ string: String, _ hash: UInt64 = offset) -> UInt64 {
        var h = hash
        for byte in string.utf8 {
            h ^= UInt64(byte)
            h = h &* prime
        }
        return h
    }

    /// One more byte (a separator between parts).
    @inline(__always)
    static func separator(_ hash: UInt64) -> UInt64 { (hash ^ 0xFF) &* prime }

    /// A strong 64-bit mix (splitmix64's finalizer).
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E3779B97F4A7C15
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }

    /// A rule's private key: the rule's seed (a hash of its id) and its own key.
    @inline(__always)
    static func ruleKey(seed: UInt64, _ key: UInt64) -> UInt64 {
        mix(key ^ mix(seed))
    }
}
