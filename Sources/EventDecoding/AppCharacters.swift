/// The characters an `app` may not hold: `/` (the topics' separator), space, and control
/// characters (C0, DEL, and C1 as UTF-8 `C2 80`–`C2 9F`).
enum AppCharacters {
    /// For eight bytes loaded little-endian: nonzero when one of them is below `!` (controls,
    /// space), `/`, DEL, or not ASCII (which may start a C1 control). Like
    /// `StringBytes.attentionMask`, it is exact in whether any byte is such.
    @inline(__always)
    static func suspectMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below21 = (word &- ones &* 0x21) & ~word
        let slash = word ^ (ones &* 0x2F)
        let hasSlash = (slash &- ones) & ~slash
        let del = word ^ (ones &* 0x7F)
        let hasDel = (del &- ones) & ~del
        return (below21 | hasSlash | hasDel | word) & highs
    }

    /// Whether one byte is printable ASCII other than space and `/`.
    @inline(__always)
    static func isPlain(_ b: UInt8) -> Bool {
        b > 0x20 && b < 0x7F && b != 0x2F
    }

    /// The offset of the first forbidden character of `n` bytes of valid UTF-8, or nil when there
    /// is none (non-ASCII characters other than C1 controls are allowed).
    static func firstForbidden(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        var i = 0
        while i < n {
            let b = p[i]
            if b < 0x80 {
                if !isPlain(b) { return i }
            } else if b == 0xC2, i &+ 1 < n, p[i &+ 1] < 0xA0 {
                return i
            }
            i &+= 1
        }
        return nil
    }
}
