/// An object key of at most 16 bytes as two little-endian words, zero past its end: what `WireKey`s
/// match on, one or two word compares per key instead of a byte-by-byte walk.
struct KeyWords {
    /// The key's length in bytes (keys may hold NUL bytes once unescaped, so the words alone do not
    /// say it).
    var count: Int
    /// Bytes 0..<8.
    var w0: UInt64
    /// Bytes 8..<16.
    var w1: UInt64

    /// The longest key words can hold.
    static let capacity = 16

    init(count: Int, w0: UInt64, w1: UInt64) {
        self.count = count
        self.w0 = w0
        self.w1 = w1
    }

    /// The `count` bytes at `bytes`, or nil when there are more than `capacity`.
    @inline(__always)
    init?(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
        guard count <= Self.capacity else { return nil }
        var w: (UInt64, UInt64) = (0, 0)
        var i = 0
        while i < count {
            let byte = UInt64(bytes[i]) &<< UInt64((i & 7) &* 8)
            if i < 8 { w.0 |= byte } else { w.1 |= byte }
            i += 1
        }
        self.init(count: count, w0: w.0, w1: w.1)
    }

    /// The low `n` bytes of a word set, for `n` in 0..<8.
    @inline(__always)
    static func lowBytes(_ n: Int) -> UInt64 {
        (1 &<< UInt64(truncatingIfNeeded: n &* 8)) &- 1
    }
}
