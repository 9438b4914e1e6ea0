/// Writes JSON strings: for the violation and diagnostic writers.
///
/// Escapes `"`, `\` and the control characters (as `\n`, `\t`, ... or `\u00XX`); everything else is
/// copied as UTF-8. Bytes that are not valid UTF-8 become U+FFFD, so the output is always valid JSON.
public enum JSONStringEscaper {
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
        guard let raw = bytes.baseAddress else { return }
        let p = raw.assumingMemoryBound(to: UInt8.self)
        let n = bytes.count
        var i = 0
        var run = 0  // start of the bytes not yet copied
        @inline(__always) func flush(_ upTo: Int, _ out: inout [UInt8]) {
            if upTo > run { out.append(contentsOf: UnsafeBufferPointer(start: p + run, count: upTo - run)) }
        }
        while i < n {
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
                flush(i, &out)
                out.append(contentsOf: [0xEF, 0xBF, 0xBD] as [UInt8])
                i += 1
                run = i
                continue
            }
            flush(i, &out)
            switch b {
            case 0x22: out.append(contentsOf: [0x5C, 0x22] as [UInt8])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C] as [UInt8])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")] as [UInt8])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")] as [UInt8])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")] as [UInt8])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")] as [UInt8])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")] as [UInt8])
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            }
            i += 1
            run = i
        }
        flush(n, &out)
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
