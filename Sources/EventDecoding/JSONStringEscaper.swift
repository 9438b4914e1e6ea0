/// Writes JSON strings: for the violation and diagnostic writers.
///
/// Escapes `"`, `\` and the control characters (as `\n`, `\t`, ... or `\u00XX`); everything else is
/// copied as UTF-8. Bytes that are not valid UTF-8 become U+FFFD, so the output is always valid JSON.
public enum JSONStringEscaper: Sendable {
    /// Appends `"` + the escaped `bytes` + `"` to `out`.
    public static func appendQuoted(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(0x22)
        appendEscaped(bytes, to: &out)
        out.append(0x22)
    }

    /// Appends `"` + the escaped string + `"` to `out`.
    public static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { appendQuoted(UnsafeRawBufferPointer($0), to: &out) }
    }

    /// Appends the escaped `bytes`, without quotes, to `out`.
    public static func appendEscaped(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        guard bytes.count > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxEscapedLength(bytes.count)) { room in
            let written = writeEscaped(bytes, to: room.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(start: room.baseAddress!, count: written))
        }
    }

    /// The most bytes `writeEscaped` writes for `count` input bytes (a control character becomes six).
    public static func maxEscapedLength(_ count: Int) -> Int { count * 6 }

    /// Writes the escaped `bytes`, without quotes, at `out`, which has room for
    /// `maxEscapedLength(bytes.count)` bytes; returns how many it wrote.
    public static func writeEscaped(_ bytes: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let raw = bytes.baseAddress else { return 0 }
        let p = raw.assumingMemoryBound(to: UInt8.self)
        let n = bytes.count
        var i = 0
        var run = 0  // start of the bytes not yet copied
        var o = 0
        @inline(__always) func flush(_ upTo: Int) {
            if upTo > run {
                (out + o).update(from: p + run, count: upTo - run)
                o += upTo - run
            }
        }
        @inline(__always) func put(_ a: UInt8, _ b: UInt8) {
            out[o] = a
            out[o + 1] = b
            o += 2
        }
        while i < n {
            // Up to the next byte that needs a look, eight at a time (the common case: ASCII text).
            i += StringBytes.plainPrefix(p + i, n - i)
            if i >= n { break }
            let b = p[i]
            if b >= 0x20, b != 0x22, b != 0x5C, b < 0x80 {
                i += 1
                continue
            }
            if b >= 0x80 {
                let length = validSequenceLength(p, i, n)
                if length > 0 {
                    i += length
                    continue
                }
                flush(i)
                out[o] = 0xEF
                out[o + 1] = 0xBF
                out[o + 2] = 0xBD
                o += 3
                i += 1
                run = i
                continue
            }
            flush(i)
            switch b {
            case 0x22: put(0x5C, 0x22)
            case 0x5C: put(0x5C, 0x5C)
            case 0x0A: put(0x5C, UInt8(ascii: "n"))
            case 0x0D: put(0x5C, UInt8(ascii: "r"))
            case 0x09: put(0x5C, UInt8(ascii: "t"))
            case 0x08: put(0x5C, UInt8(ascii: "b"))
            case 0x0C: put(0x5C, UInt8(ascii: "f"))
            default:
                let hex = b >> 4, low = b & 0xF
                put(0x5C, UInt8(ascii: "u"))
                put(0x30, 0x30)
                put(hex &+ 0x30, low < 10 ? low &+ 0x30 : low &+ 0x57)
            }
            i += 1
            run = i
        }
        flush(n)
        return o
    }

    /// The length of the valid UTF-8 sequence of 2 to 4 bytes at `p[i]`, or 0 when there is none.
    private static func validSequenceLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let trailing: Int
        switch p[i] {
        case 0xC2...0xDF: trailing = 1
        case 0xE0: trailing = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
        case 0xED: trailing = 2; high = 0x9F
        case 0xF0: trailing = 3; low = 0x90
        case 0xF1...0xF3: trailing = 3
        case 0xF4: trailing = 3; high = 0x8F
        default: return 0
        }
        guard i + trailing < n, p[i + 1] >= low, p[i + 1] <= high else { return 0 }
        for k in 2...max(2, trailing) where k <= trailing {
            guard p[i + k] & 0xC0 == 0x80 else { return 0 }
        }
        return trailing + 1
    }
}
