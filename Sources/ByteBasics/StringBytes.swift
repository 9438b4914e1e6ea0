internal import CByteClasses

/// Word-at-a-time tests over string bytes, for the event scanner and the escaper.
public enum StringBytes: Sendable {
    /// For eight bytes loaded little-endian: the high bit of each byte that is a control
    /// character, `"`, `\` or not ASCII. The lowest set bit is exact (the classic "has a
    /// byte less than / equal to" tests can only add false positives above a true one),
    /// so `trailingZeroBitCount / 8` is the index of the first byte that needs a look.
    @inlinable @inline(__always)
    public static func attentionMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below20 = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        return (below20 | hasQuote | hasBackslash | word) & highs
    }

    /// For eight bytes loaded little-endian: the high bit of each byte that is `"`. As in
    /// `attentionMask`, the lowest set bit is exact.
    @inlinable @inline(__always)
    public static func quoteMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        return (quote &- ones) & ~quote & (ones &* 0x80)
    }

    /// How many bytes from `p` on, up to `limit`, are plain printable ASCII other than `"` and `\`.
    @inlinable @inline(__always)
    public static func plainPrefix(_ p: UnsafePointer<UInt8>, _ limit: Int) -> Int {
        var i = 0
        while i + 8 <= limit {
            let mask = attentionMask(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
            if mask != 0 { return i + mask.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < limit {
            let b = p[i]
            guard b >= 0x20, b < 0x80, b != 0x22, b != 0x5C else { return i }
            i += 1
        }
        return limit
    }

    /// The offset of the first byte of `p[from..<count]` that is 0x7F or above (DEL, or not
    /// ASCII), or `count`: 16 bytes at a time (`mw_first_at_least_7f`).
    public static func firstAtLeast7F(_ p: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
        from >= count ? count : mw_first_at_least_7f(p, from, count)
    }
}
