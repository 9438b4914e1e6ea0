import ByteBasics

/// A cursor over JSON text (RFC 8259) that validates as it moves: string escapes and UTF-8, the number
/// grammar, literals, and nested values up to a depth limit. It never allocates.
///
/// The scanning functions throw `DecodeError` with reason `.malformedJSON`.
struct JSONScanner {
    /// The deepest nesting a scanner can track (two 64-bit words of container kinds).
    static let depthCapacity = 128

    /// A string value's content, without the quotes.
    struct StringSpan {
        var start: Int
        var end: Int
        /// True when the content holds backslash escapes and must be unescaped.
        var escaped: Bool
    }

    let base: UnsafePointer<UInt8>
    let end: Int
    var pos: Int
    /// Deepest nesting allowed, the outermost container being depth 1.
    let maxDepth: Int

    init(base: UnsafePointer<UInt8>, end: Int, pos: Int = 0, maxDepth: Int) {
        self.base = base
        self.end = end
        self.pos = pos
        self.maxDepth = maxDepth
    }

    @inline(__always) var atEnd: Bool { pos >= end }

    /// The byte at the cursor, or 0 at the end (0 is never valid where the scanner looks at it).
    @inline(__always) var peek: UInt8 { pos < end ? base[pos] : 0 }

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < end {
            let b = base[pos]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            pos += 1
        }
    }

    /// Consumes `byte` or throws `what`.
    @inline(__always)
    mutating func expect(_ byte: UInt8, _ what: StaticString) throws(DecodeError) {
        guard pos < end, base[pos] == byte else { throw unexpected(what) }
        pos += 1
    }

    /// A syntax error at the cursor: "unexpected end" when at the end, else `what`.
    func unexpected(_ what: StaticString) -> DecodeError {
        pos >= end ? .syntax("unexpected end of input", at: pos) : .syntax(what, at: pos)
    }

    // MARK: strings

    /// Scans a string; the cursor is on its opening quote and ends after its closing quote.
    @inline(__always)
    mutating func scanString() throws(DecodeError) -> StringSpan {
        pos += 1
        let start = pos
        var escaped = false
        while true {
            // The common case: printable ASCII other than the quote and the backslash.
            pos += StringBytes.plainPrefix(base + pos, end - pos)
            guard pos < end else { throw .syntax("unterminated string", at: start - 1) }
            let b = base[pos]
            if b == 0x22 {
                let span = StringSpan(start: start, end: pos, escaped: escaped)
                pos += 1
                return span
            }
            if b == 0x5C {
                escaped = true
                try scanEscape()
            } else if b < 0x20 {
                throw .syntax("control character in string", at: pos)
            } else {
                try scanMultibyte(lead: b)
            }
        }
    }

    /// Scans one escape; the cursor is on the backslash.
    private mutating func scanEscape() throws(DecodeError) {
        let at = pos
        pos += 1
        guard pos < end else { throw .syntax("unterminated string", at: at) }
        switch base[pos] {
        case 0x22, 0x5C, 0x2F, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"),
            UInt8(ascii: "t"):
            pos += 1
        case UInt8(ascii: "u"):
            pos += 1
            let unit = try hex4(escapeAt: at)
            if unit >= 0xD800, unit <= 0xDBFF {
                guard pos + 1 < end, base[pos] == 0x5C, base[pos + 1] == UInt8(ascii: "u") else {
                    throw .syntax("lone high surrogate escape in string", at: at)
                }
                pos += 2
                let low = try hex4(escapeAt: pos - 2)
                guard low >= 0xDC00, low <= 0xDFFF else {
                    throw .syntax("lone high surrogate escape in string", at: at)
                }
            } else if unit >= 0xDC00, unit <= 0xDFFF {
                throw .syntax("lone low surrogate escape in string", at: at)
            }
        default:
            throw .syntax("invalid escape in string", at: at)
        }
    }

    /// Reads four hex digits at the cursor.
    private mutating func hex4(escapeAt: Int) throws(DecodeError) -> UInt32 {
        guard pos + 4 <= end else { throw .syntax("invalid \\u escape in string", at: escapeAt) }
        var value: UInt32 = 0
        for i in 0..<4 {
            guard let digit = Self.hexValue(base[pos + i]) else {
                throw .syntax("invalid \\u escape in string", at: escapeAt)
            }
            value = value << 4 | digit
        }
        pos += 4
        return value
    }

    /// The value of a hex digit.
    @inline(__always)
    static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b &- 0x30)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b &- 0x57)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b &- 0x37)
        default: nil
        }
    }

    /// Validates one UTF-8 sequence of two to four bytes (RFC 3629: no overlong forms, no surrogates,
    /// nothing above U+10FFFF); the cursor is on its lead byte. The same check as
    /// `UTF8Decoding.validSequenceLength`, kept inline here: the call into ByteBasics costs the
    /// scanner instructions on every event (callgrind on `modalwatch check`).
    private mutating func scanMultibyte(lead: UInt8) throws(DecodeError) {
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let trailing: Int
        switch lead {
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
        default: throw .syntax("invalid UTF-8", at: pos)
        }
        guard pos + trailing < end else { throw .syntax("invalid UTF-8", at: pos) }
        let second = base[pos + 1]
        guard second >= low, second <= high else { throw .syntax("invalid UTF-8", at: pos) }
        var i = 2
        while i <= trailing {
            guard base[pos + i] & 0xC0 == 0x80 else { throw .syntax("invalid UTF-8", at: pos) }
            i += 1
        }
        pos += trailing + 1
    }

    // MARK: numbers and literals

    /// Scans a number by the RFC 8259 grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    @inline(__always)
    mutating func scanNumber() throws(DecodeError) {
        if peek == UInt8(ascii: "-") { pos += 1 }
        let first = peek
        if first == UInt8(ascii: "0") {
            pos += 1
        } else if first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9") {
            pos += 1
            skipDigits()
        } else {
            throw unexpected("invalid number")
        }
        if peek == UInt8(ascii: ".") {
            pos += 1
            guard Self.isDigit(peek) else { throw unexpected("invalid number: digit expected after '.'") }
            skipDigits()
        }
        let e = peek
        if e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            pos += 1
            let sign = peek
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { pos += 1 }
            guard Self.isDigit(peek) else { throw unexpected("invalid number: digit expected in exponent") }
            skipDigits()
        }
    }

    /// The fast path of `scanInteger`, which cannot fail: `-?`, a first digit of 1–9, at most 15 digits
    /// in all, 16 bytes of payload from the first digit, and no fraction or exponent after them. The
    /// digits are read 8 at a time (`DigitWords`): more than 8 (a timestamp in milliseconds has 13)
    /// are moved to the end of the two words, zeros before them, and read as two groups of 8. Then
    /// the cursor is after the last digit; else nil, and the cursor has not moved.
    @inline(__always)
    mutating func quickInteger() -> Int64? {
        let negative = base[pos] == UInt8(ascii: "-")  // the caller saw a '-' or a digit at the cursor
        let digitsStart = negative ? pos &+ 1 : pos
        guard digitsStart &+ 16 <= end, base[digitsStart] &- 0x31 < 9 else { return nil }
        let p = UnsafeRawPointer(base + digitsStart)
        let w0 = p.loadUnaligned(as: UInt64.self)
        let m0 = DigitWords.nonDigits(w0)
        var value: Int64
        var n: Int
        if m0 != 0 {
            n = m0.trailingZeroBitCount &>> 3
            value = Int64(DigitWords.value(w0, n))
        } else {
            let w1 = p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let m1 = DigitWords.nonDigits(w1)
            guard m1 != 0 else { return nil }
            let n1 = m1.trailingZeroBitCount &>> 3
            n = 8 &+ n1
            if n1 == 0 {
                value = Int64(DigitWords.value8(w0))
            } else {
                let shift = UInt64(truncatingIfNeeded: (8 &- n1) &* 8)  // 8...56
                let high = DigitWords.value8((w0 &<< shift) | (DigitWords.zeros &>> (64 &- shift)))
                let low = DigitWords.value8((w1 &<< shift) | (w0 &>> (64 &- shift)))
                value = Int64(high &* 100_000_000 &+ low)
            }
        }
        let after = digitsStart &+ n
        let next = base[after]  // after < end: at most 15 digits of 16 bytes
        guard next != UInt8(ascii: "."), next != UInt8(ascii: "e"), next != UInt8(ascii: "E") else { return nil }
        pos = after
        return negative ? 0 &- value : value
    }

    /// Scans a number like `scanNumber` and reads it when it is `-?` and at most 18 digits without
    /// fraction or exponent (what `JSONNumber.integer` reads on its fast path); nil for other numbers.
    @inline(__always)
    mutating func scanInteger() throws(DecodeError) -> Int64? {
        if let value = quickInteger() { return value }
        let start = pos
        let negative = base[pos] == UInt8(ascii: "-")  // the caller saw a '-' or a digit at the cursor
        if negative { pos &+= 1 }
        let digitsStart = pos
        var value: Int64 = 0
        let first = peek
        if first == UInt8(ascii: "0") {
            pos &+= 1
        } else if first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9") {
            value = Int64(first &- 0x30)
            pos &+= 1
            while pos < end {
                let digit = base[pos] &- 0x30
                guard digit < 10 else { break }
                value = value &* 10 &+ Int64(digit)
                pos &+= 1
            }
        } else {
            throw unexpected("invalid number")
        }
        let next = peek
        if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            pos = start
            try scanNumber()
            return nil
        }
        guard pos &- digitsStart <= 18 else { return nil }
        return negative ? 0 &- value : value
    }

    @inline(__always)
    private mutating func skipDigits() {
        while pos < end, Self.isDigit(base[pos]) { pos += 1 }
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// Scans `literal` (true, false or null); the cursor is on its first byte.
    @inline(__always)
    mutating func scanLiteral(_ literal: StaticString) throws(DecodeError) {
        let n = literal.utf8CodeUnitCount
        guard pos + n <= end, literal.isSpelled(by: base + pos, n) else { throw unexpected("invalid literal") }
        pos += n
    }

    // MARK: whole values

    /// Scans `"key"` then `:` and the whitespace around it; the cursor is on the key's quote.
    @inline(__always)
    mutating func scanKey() throws(DecodeError) -> StringSpan {
        guard peek == 0x22 else { throw unexpected("expected a string key") }
        let key = try scanString()
        skipWhitespace()
        try expect(UInt8(ascii: ":"), "expected ':' after a key")
        skipWhitespace()
        return key
    }

    /// Scans any value, validating all of it; `depth` is the depth of the container holding it (0 for
    /// a top-level value). Nested values are walked iteratively: no recursion, no allocation.
    mutating func skipValue(depth: Int) throws(DecodeError) {
        var level = 0
        // Bit i of `kinds` is 1 when the container at nesting level i + 1 is an array.
        var kinds: (UInt64, UInt64) = (0, 0)

        @inline(__always) func isArray(_ level: Int, _ kinds: (UInt64, UInt64)) -> Bool {
            let i = level - 1
            return i < 64 ? (kinds.0 >> UInt64(i)) & 1 == 1 : (kinds.1 >> UInt64(i - 64)) & 1 == 1
        }

        while true {
            // A value starts at the cursor.
            switch peek {
            case 0x22:
                _ = try scanString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try scanNumber()
            case UInt8(ascii: "t"):
                try scanLiteral("true")
            case UInt8(ascii: "f"):
                try scanLiteral("false")
            case UInt8(ascii: "n"):
                try scanLiteral("null")
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let array = peek == UInt8(ascii: "[")
                guard depth + level < maxDepth else { throw .syntax("nested too deep", at: pos) }
                level += 1
                let i = level - 1
                if i < 64 {
                    kinds.0 = array ? kinds.0 | (1 << UInt64(i)) : kinds.0 & ~(1 << UInt64(i))
                } else {
                    kinds.1 = array ? kinds.1 | (1 << UInt64(i - 64)) : kinds.1 & ~(1 << UInt64(i - 64))
                }
                pos += 1
                skipWhitespace()
                if peek == (array ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
                    pos += 1
                    level -= 1
                } else {
                    if !array { _ = try scanKey() }
                    continue
                }
            default:
                throw unexpected("expected a value")
            }
            // A value ended: close containers until one goes on with another value.
            while true {
                if level == 0 { return }
                skipWhitespace()
                let array = isArray(level, kinds)
                let b = peek
                if b == UInt8(ascii: ",") {
                    pos += 1
                    skipWhitespace()
                    if !array { _ = try scanKey() }
                    break
                }
                guard b == (array ? UInt8(ascii: "]") : UInt8(ascii: "}")) else {
                    throw unexpected(array ? "expected ',' or ']' in array" : "expected ',' or '}' in object")
                }
                pos += 1
                level -= 1
            }
        }
    }
}
