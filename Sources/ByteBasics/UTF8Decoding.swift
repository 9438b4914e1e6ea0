/// UTF-8 over raw bytes, without allocating: the one scalar decoder and the one
/// sequence validator (RFC 3629: shortest forms only, no surrogates, at most U+10FFFF).
public enum UTF8Decoding: Sendable {
    /// The scalar at `offset` (which must be below `bytes.count`) and its width in bytes.
    /// A byte that does not start a valid sequence reads as U+FFFD, one byte wide, so any
    /// input can be walked.
    @inlinable
    public static func scalar(
        in bytes: UnsafeBufferPointer<UInt8>,
        at offset: Int
    ) -> (scalar: Unicode.Scalar, width: Int) {
        let lead = bytes[offset]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let width: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF:
            width = 2
            value = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            width = 3
            value = UInt32(lead & 0x0F)
        case 0xF0...0xF4:
            width = 4
            value = UInt32(lead & 0x07)
        default: return ("\u{FFFD}", 1)
        }
        guard offset + width <= bytes.count else { return ("\u{FFFD}", 1) }
        for index in 1..<width {
            let byte = bytes[offset + index]
            guard byte & 0xC0 == 0x80 else { return ("\u{FFFD}", 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = width == 2 ? 0x80 : width == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return ("\u{FFFD}", 1) }
        return (scalar, width)
    }

    /// The length (2 to 4) of the valid multi-byte sequence whose lead byte is `p[i]`
    /// (with `n` bytes in all), or 0 when there is none.
    @inlinable
    public static func validSequenceLength(_ p: UnsafePointer<UInt8>, at i: Int, count n: Int) -> Int {
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let trailing: Int
        switch p[i] {
        case 0xC2...0xDF: trailing = 1
        case 0xE0:
            trailing = 2
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
        case 0xED:
            trailing = 2
            high = 0x9F
        case 0xF0:
            trailing = 3
            low = 0x90
        case 0xF1...0xF3: trailing = 3
        case 0xF4:
            trailing = 3
            high = 0x8F
        default: return 0
        }
        guard i + trailing < n, p[i + 1] >= low, p[i + 1] <= high else { return 0 }
        for k in 2...max(2, trailing) where k <= trailing {
            guard p[i + k] & 0xC0 == 0x80 else { return 0 }
        }
        return trailing + 1
    }

    /// Whether all of `bytes` is well-formed UTF-8.
    @inlinable
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = bytes.baseAddress else { return true }
        var i = 0
        while i < bytes.count {
            if p[i] < 0x80 {
                i += 1
                continue
            }
            let length = validSequenceLength(p, at: i, count: bytes.count)
            if length == 0 { return false }
            i += length
        }
        return true
    }
}
