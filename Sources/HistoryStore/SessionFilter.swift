/// The session filter of one bucket of segments (`session_filters`): a Bloom filter of
/// `byteCount` bytes over the FNV-1a 64 hashes of the sessions of every segment whose `first_seq`
/// is in the bucket (`first_seq >> ViolationHistory.sessionBucketShift`), `probes` bits a session.
/// A session's query reads the filters, newest bucket first, and reads the session sets
/// (`SessionSet`) of a bucket's segments only when its filter may hold the session: with 1,024
/// sessions in a bucket, about one bucket in 200 is read for nothing.
enum SessionFilter {
    /// Bytes of a filter: 16,384 bits, small enough that a filter's row stays on its B-tree page.
    static let byteCount = 2048
    /// Bits set per session.
    static let probes = 3

    /// The bit positions of a session hash: three 14-bit slices of its mix.
    @inline(__always)
    static func bits(_ hash: UInt64) -> (Int, Int, Int) {
        var x = hash
        x ^= x >> 33
        x = x &* 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        let mask: UInt64 = UInt64(byteCount * 8 - 1)
        return (Int(x & mask), Int((x >> 14) & mask), Int((x >> 28) & mask))
    }

    /// Sets the bits of `hash` in `filter` (`byteCount` bytes).
    static func insert(_ hash: UInt64, into filter: UnsafeMutableRawBufferPointer) {
        let (a, b, c) = bits(hash)
        filter[a >> 3] |= UInt8(1) << UInt8(a & 7)
        filter[b >> 3] |= UInt8(1) << UInt8(b & 7)
        filter[c >> 3] |= UInt8(1) << UInt8(c & 7)
    }

    /// Whether `filter` may hold `hash` (false: it does not). A filter of another size holds anything.
    static func mayContain(_ hash: UInt64, in filter: UnsafeRawBufferPointer) -> Bool {
        guard filter.count == byteCount else { return true }
        let (a, b, c) = bits(hash)
        return filter[a >> 3] & (UInt8(1) << UInt8(a & 7)) != 0
            && filter[b >> 3] & (UInt8(1) << UInt8(b & 7)) != 0
            && filter[c >> 3] & (UInt8(1) << UInt8(c & 7)) != 0
    }
}
