import ByteBasics

extension Text {
    /// True when absent, empty, or only whitespace (Unicode `White_Space`).
    public var isBlank: Bool {
        var blank = true
        forEachScalar { scalar, _, _ in
            if !Text.isWhitespace(scalar) { blank = false }
            return blank
        }
        return blank
    }

    /// The same text without leading and trailing whitespace (a sub-view; absent stays absent).
    ///
    /// Reads only the whitespace at both ends: a trailing ASCII byte is always a scalar of its
    /// own (no UTF-8 sequence contains one), so the end is found walking back over ASCII bytes;
    /// only a non-ASCII last scalar sends it forward through the text to find scalar boundaries.
    public var trimmed: Text {
        guard !isAbsent else { return self }
        let all = bytes
        guard let base = all.baseAddress else { return Text(all) }
        let count = all.count
        var start = 0
        while start < count {
            let lead = all[start]
            if lead < 0x80 {
                guard Text.isASCIIWhitespace(lead) else { break }
                start += 1
            } else {
                let (scalar, width) = Text.decodeScalar(all, at: start)
                guard Text.isNonASCIIWhitespace(scalar) else { break }
                start += width
            }
        }
        guard start < count else { return Text(UnsafeBufferPointer(start: base, count: 0)) }
        var end = count
        while end > start {
            let last = all[end - 1]
            if last >= 0x80 {
                end = Text.endOfLastNonWhitespace(all, from: start, to: end)
                break
            }
            guard Text.isASCIIWhitespace(last) else { break }
            end -= 1
        }
        return Text(UnsafeBufferPointer(start: base + start, count: end - start))
    }

    /// The end of the last scalar in `from..<to` that is not whitespace, walking forward
    /// from `from` (a scalar boundary whose scalar is not whitespace).
    private static func endOfLastNonWhitespace(_ all: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        var offset = from
        var end = from
        while offset < to {
            let (scalar, width) = decodeScalar(all, at: offset)
            offset += width
            if !isWhitespace(scalar) { end = offset }
        }
        return end
    }

    /// Unicode `White_Space`, without a property lookup for ASCII.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIIWhitespace(UInt8(truncatingIfNeeded: scalar.value)) }
        return isNonASCIIWhitespace(scalar)
    }

    /// Unicode `White_Space` for a non-ASCII scalar, out of line: inlined, the property
    /// lookup's resilient types would cost every caller a prologue even for ASCII.
    @inline(never)
    static func isNonASCIIWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    /// Unicode `White_Space` among ASCII bytes: tab, line feed, vertical tab, form feed,
    /// carriage return and space.
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// Feeds the lowercase mapping of every scalar into `hasher`, without allocating.
    public func hashLowercased(into hasher: inout FNV1a) {
        let all = bytes
        var offset = 0
        var local = hasher.hasher
        while offset < all.count {
            let lead = all[offset]
            if lead < 0x80 {
                local.add(Text.asciiLower(lead))
                offset += 1
                continue
            }
            let (scalar, width) = Text.decodeScalar(all, at: offset)
            Text.hashLowercaseMapping(of: scalar, into: &local)
            offset += width
        }
        hasher.hasher = local
    }

    /// Adds a non-ASCII scalar's lowercase mapping to `hasher` (out of line: the property
    /// lookup's resilient types cost the ASCII path nothing then).
    @inline(never)
    private static func hashLowercaseMapping(of scalar: Unicode.Scalar, into hasher: inout FNV1a64) {
        hasher.add(scalar.properties.lowercaseMapping)
    }

    /// The lowercase mapping of the text as a `String` (empty when absent).
    public var lowercased: String {
        string?.lowercased() ?? ""
    }

    /// Calls `body` with each Unicode scalar and its byte range until it returns false.
    /// A byte that does not start a valid UTF-8 sequence is read as U+FFFD.
    func forEachScalar(_ body: (Unicode.Scalar, Int, Int) -> Bool) {
        let all = bytes
        var offset = 0
        while offset < all.count {
            let (scalar, width) = Text.decodeScalar(all, at: offset)
            if !body(scalar, offset, offset + width) { return }
            offset += width
        }
    }

    /// Decodes the scalar at `offset` (at least one byte long).
    static func decodeScalar(_ all: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar, Int) {
        let (scalar, width) = UTF8Decoding.scalar(in: all, at: offset)
        return (scalar, width)
    }
}
