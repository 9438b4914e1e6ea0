import ByteBasics

/// JSON syntax checks for text that is not an event, e.g. a rule module's evidence JSON.
public enum JSONSyntax: Sendable {
    /// True when `bytes` is exactly one JSON object (RFC 8259, UTF-8, no byte order mark), with
    /// optional whitespace around it, nested at most `maxDepth` levels (at most 128).
    public static func isValidObject(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 128) -> Bool {
        guard let raw = bytes.baseAddress, bytes.count > 0 else { return false }
        // The common shape first, without the scanner; any other goes to it.
        if maxDepth >= 2, compactObject(raw.assumingMemoryBound(to: UInt8.self), bytes.count) { return true }
        return scannerAccepts(bytes, maxDepth: maxDepth)
    }

    /// `isValidObject` by the general scanner alone.
    static func scannerAccepts(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> Bool {
        guard let raw = bytes.baseAddress, bytes.count > 0 else { return false }
        var scanner = JSONScanner(
            base: raw.assumingMemoryBound(to: UInt8.self),
            end: bytes.count,
            maxDepth: min(maxDepth, JSONScanner.depthCapacity)
        )
        scanner.skipWhitespace()
        guard scanner.peek == UInt8(ascii: "{") else { return false }
        do {
            try scanner.skipValue(depth: 0)
        } catch {
            return false
        }
        scanner.skipWhitespace()
        return scanner.atEnd
    }

    /// True when `p[0..<count]` is a compact object (a rule module's evidence as RuleKit writes
    /// it): no whitespace, keys and string values without escapes or control characters (UTF-8
    /// checked where a byte is not ASCII), integers, `true`, `false`, `null`, and arrays of
    /// those. Every object it accepts is valid; false means only "not of this shape" (the
    /// general scanner decides).
    private static func compactObject(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard count >= 2, p[0] == UInt8(ascii: "{") else { return false }
        if p[1] == UInt8(ascii: "}") { return count == 2 }
        var i = 1
        while true {
            // `"key":`
            guard p[i] == 0x22, let keyEnd = stringEnd(p, from: i &+ 1, count), keyEnd &+ 2 < count,
                p[keyEnd &+ 1] == UInt8(ascii: ":")
            else { return false }
            i = keyEnd &+ 2
            if p[i] == UInt8(ascii: "[") {
                i &+= 1
                guard i < count else { return false }
                if p[i] != UInt8(ascii: "]") {
                    while true {
                        guard let end = scalarEnd(p, from: i, count), end < count else { return false }
                        i = end
                        guard p[i] == UInt8(ascii: ",") else { break }
                        i &+= 1
                    }
                    guard p[i] == UInt8(ascii: "]") else { return false }
                }
                i &+= 1
            } else {
                guard let end = scalarEnd(p, from: i, count) else { return false }
                i = end
            }
            guard i < count else { return false }
            guard p[i] == UInt8(ascii: ",") else { return p[i] == UInt8(ascii: "}") && i &+ 1 == count }
            i &+= 1
            guard i < count else { return false }
        }
    }

    /// The offset after the scalar at `i` (a string of `stringEnd`'s kind, an integer's
    /// `-?(0|[1-9][0-9]*)`, `true`, `false` or `null`), or nil when none is there. The caller
    /// checks the byte after it (a separator: so no fraction, exponent or further digit).
    @inline(__always)
    private static func scalarEnd(_ p: UnsafePointer<UInt8>, from i: Int, _ count: Int) -> Int? {
        guard i < count else { return nil }
        let b = p[i]
        if b == 0x22 {
            guard let end = stringEnd(p, from: i &+ 1, count) else { return nil }
            return end &+ 1
        }
        var j = b == UInt8(ascii: "-") ? i &+ 1 : i
        if j < count, p[j] &- 0x30 < 10 {
            if p[j] == 0x30 {
                return j &+ 1
            }
            while j < count, p[j] &- 0x30 < 10 { j &+= 1 }
            return j
        }
        guard b != UInt8(ascii: "-"), i &+ 4 <= count else { return nil }
        switch UnsafeRawPointer(p + i).loadUnaligned(as: UInt32.self) {
        case 0x6575_7274, 0x6c6c_756e: return i &+ 4  // "true", "null"
        case 0x736c_6166: return i &+ 5 <= count && p[i &+ 4] == UInt8(ascii: "e") ? i &+ 5 : nil  // "fals"
        default: return nil
        }
    }

    /// The offset of the closing quote of the string whose bytes start at `i`, when it has no
    /// backslash and no control character and its bytes are valid UTF-8; else nil. Eight bytes
    /// at a time up to the first that needs a look (`StringBytes.attentionMask`).
    @inline(__always)
    private static func stringEnd(_ p: UnsafePointer<UInt8>, from i: Int, _ count: Int) -> Int? {
        var j = i
        var ascii = true
        while true {
            while j &+ 8 <= count {
                let mask = StringBytes.attentionMask(UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self))
                if mask != 0 {
                    j &+= mask.trailingZeroBitCount &>> 3
                    break
                }
                j &+= 8
            }
            guard j < count else { return nil }
            let b = p[j]
            if b == 0x22 { break }
            if b < 0x20 || b == UInt8(ascii: "\\") { return nil }
            if b >= 0x80 { ascii = false }
            j &+= 1
        }
        if !ascii, !UTF8Decoding.isValid(UnsafeBufferPointer(start: p + i, count: j &- i)) { return nil }
        return j
    }

    /// `isValidObject` over the UTF-8 of a string.
    public static func isValidObject(_ text: String, maxDepth: Int = 128) -> Bool {
        var text = text
        return text.withUTF8 { isValidObject(UnsafeRawBufferPointer($0), maxDepth: maxDepth) }
    }
}
