/// FNV-1a 64 with the standard parameters of `scale.md` (offset basis
/// 14695981039346656037, prime 1099511628211): the hash behind shard buckets.
///
/// Not the engine's id hash (`SessionEngine`'s `Hashing`), whose offset differs and
/// must not change (violation ids depend on it).
public enum FNV1a64 {
    /// The offset basis.
    public static let offsetBasis: UInt64 = 14_695_981_039_346_656_037
    /// The prime.
    public static let prime: UInt64 = 1_099_511_628_211

    /// The hash of `bytes`.
    @inline(__always)
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = offsetBasis
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* prime
        }
        return h
    }

    /// The hash of a string's UTF-8 bytes.
    public static func hash(_ string: String) -> UInt64 {
        var h = offsetBasis
        for byte in string.utf8 {
            h ^= UInt64(byte)
            h = h &* prime
        }
        return h
    }
}
