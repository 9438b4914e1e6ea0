extension Text {
    /// True when absent, empty, or only whitespace (Unicode `White_Space`).
    public var isBlank: Bool {
        var blank = true
        forEachScalar { scalar, _, _ in
            if !scalar.properties.isWhitespace { blank = false }
            return blank
        }
        return blank
    }

    /// The same text without leading and trailing whitespace (a sub-view; absent stays absent).
    public var trimmed: Text {
        guard !isAbsent else { return self }
        var start = -1
        var end = 0
        forEachScalar { scalar, from, to in
            if !scalar.properties.isWhitespace {
                if start < 0 { start = from }
                end = to
            }
            return true
        }
        let all = bytes
        guard start >= 0, let base = all.baseAddress else {
            return Text(UnsafeBufferPointer(start: all.baseAddress, count: 0))
        }
        return Text(UnsafeBufferPointer(start: base + start, count: end - start))
    }

    /// Feeds the lowercase mapping of every scalar into `hasher`, without allocating.
    public func hashLowercased(into hasher: inout FNV1a) {
        forEachScalar { scalar, _, _ in
            if scalar.isASCII {
                hasher.add(Text.asciiLower(UInt8(truncatingIfNeeded: scalar.value)))
            } else {
                for byte in scalar.properties.lowercaseMapping.utf8 { hasher.add(byte) }
            }
            return true
        }
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
        let lead = all[offset]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let width: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: width = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: width = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: width = 4; value = UInt32(lead & 0x07)
        default: return ("\u{FFFD}", 1)
        }
        guard offset + width <= all.count else { return ("\u{FFFD}", 1) }
        for index in 1..<width {
            let byte = all[offset + index]
            guard byte & 0xC0 == 0x80 else { return ("\u{FFFD}", 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = width == 2 ? 0x80 : width == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return ("\u{FFFD}", 1) }
        return (scalar, width)
    }
}
