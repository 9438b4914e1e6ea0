/// Decimal digits read eight at a time from a little-endian word (the first digit in the lowest byte).
enum DigitWords {
    private static let zeros: UInt64 = 0x3030_3030_3030_3030

    /// How many of the word's bytes, from the lowest, are ASCII digits before the first that is not (8
    /// when all are). Exact for the lowest non-digit: a carry can only flag bytes above it.
    @inline(__always)
    static func count(_ word: UInt64) -> Int {
        let t = word ^ zeros
        let nonDigit = ((t &+ 0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080
        return nonDigit == 0 ? 8 : nonDigit.trailingZeroBitCount &>> 3
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

    /// 10^n for n in 0...8.
    @inline(__always)
    static func power(_ n: Int) -> Int64 {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }
}
