/// Turns the content of a JSON string that `JSONScanner` validated into its UTF-8 bytes.
enum JSONUnescaper {
    /// Writes the unescaped content of `source[start..<end]` to `destination` (which has room for at
    /// least `end - start` bytes: unescaping never lengthens) and returns the number of bytes written.
    /// The content must have passed `JSONScanner.scanString`.
    static func unescape(
        _ source: UnsafePointer<UInt8>,
        _ start: Int,
        _ end: Int,
        into destination: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var i = start
        var out = 0
        while i < end {
            let b = source[i]
            guard b == 0x5C else {
                destination[out] = b
                out += 1
                i += 1
                continue
            }
            let e = source[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"):
                destination[out] = 0x08
                out += 1
            case UInt8(ascii: "f"):
                destination[out] = 0x0C
                out += 1
            case UInt8(ascii: "n"):
                destination[out] = 0x0A
                out += 1
            case UInt8(ascii: "r"):
                destination[out] = 0x0D
                out += 1
            case UInt8(ascii: "t"):
                destination[out] = 0x09
                out += 1
            case UInt8(ascii: "u"):
                var scalar = hex4(source, i)
                i += 4
                if scalar >= 0xD800, scalar <= 0xDBFF {
                    // The scanner guaranteed a low surrogate escape follows.
                    let low = hex4(source, i + 2)
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out += encode(scalar, into: destination + out)
            default:  // '"', '\\', '/'
                destination[out] = e
                out += 1
            }
        }
        return out
    }

    @inline(__always)
    private static func hex4(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 { value = value << 4 | (JSONScanner.hexValue(p[i + k]) ?? 0) }
        return value
    }

    /// Writes `scalar` as UTF-8 and returns its length.
    @inline(__always)
    static func encode(_ scalar: UInt32, into p: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            p[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            p[0] = UInt8(0xC0 | scalar >> 6)
            p[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            p[0] = UInt8(0xE0 | scalar >> 12)
            p[1] = UInt8(0x80 | (scalar >> 6) & 0x3F)
            p[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            p[0] = UInt8(0xF0 | scalar >> 18)
            p[1] = UInt8(0x80 | (scalar >> 12) & 0x3F)
            p[2] = UInt8(0x80 | (scalar >> 6) & 0x3F)
            p[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
