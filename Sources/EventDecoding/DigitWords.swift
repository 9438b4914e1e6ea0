/// Decimal digits read eight at a time from a little-endian word (the first digit in the lowest byte).
enum DigitWords {
    /// Eight ASCII `0`s.
    static let zeros: UInt64 = 0x3030_3030_3030_3030

    /// The high bit of each of the word's bytes that is not an ASCII digit. Exact for the lowest
    /// non-digit: a carry can only flag bytes above it.
    @inline(__always)
    static func nonDigits(_ word: UInt64) -> UInt64 {
        let t = word ^ zeros
        return ((t &+ 0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080
    }

    /// The value of eight ASCII digits.
    @inline(__always)
    static func value8(_ word: UInt64) -> UInt64 {
        var v = word &- zeros
        v = v &* 10 &+ (v &>> 8)
        let low = (v & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 &<< 32))
        let high = ((v &>> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 &<< 32))
        return (low &+ high) &>> 32
    }

    /// The value of the word's lowest `n` bytes (1...8), which are ASCII digits.
    @inline(__always)
    static func value(_ word: UInt64, _ n: Int) -> UInt64 {
        guard n < 8 else { return value8(word) }
        let shift = UInt64(truncatingIfNeeded: (8 &- n) &* 8)
        return value8((word &<< shift) | (zeros &>> (64 &- shift)))
    }
}
