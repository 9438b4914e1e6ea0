/// Writes JSON strings: the one escaper, for the violation and diagnostic writers and a
/// rule's evidence.
///
/// Escapes `"`, `\` and the control characters (as `\n`, `\t`, ... or `\u00XX`); everything else is
/// copied as UTF-8. Bytes that are not valid UTF-8 become U+FFFD, so the output is always valid JSON.
/// With `escapingLineSeparators`, U+2028 and U+2029 become `\u2028` and `\u2029` too (what a
/// JavaScript reader of the text needs; evidence has always been written so).
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
    public static func writeEscaped(
        _ bytes: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<UInt8>, escapingLineSeparators: Bool = false
    ) -> Int {
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
                let length = UTF8Decoding.validSequenceLength(p, at: i, count: n)
                if length == 3, escapingLineSeparators, b == 0xE2, p[i + 1] == 0x80, p[i + 2] == 0xA8 || p[i + 2] == 0xA9 {
                    flush(i)
                    put(0x5C, UInt8(ascii: "u"))
                    put(0x32, 0x30)
                    put(0x32, p[i + 2] == 0xA8 ? 0x38 : 0x39)
                    i += 3
                    run = i
                    continue
                }
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
}
