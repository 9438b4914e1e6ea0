/// Small wording helpers for one-sentence violation messages.
public enum Phrase {
    /// A duration for a person (violations.md, "Messages are for designers"), in the largest
    /// unit it is a whole number of: `2 h`, `10 min`, `90 s`, `250 ms`; else under 100 s in
    /// tenths of a second (`21.4 s`, `1.5 s`), else in whole seconds (`125 s`).
    public static func duration(_ ms: Int64) -> String {
        let message: Message = "\(duration: ms)"
        return message.string
    }

    /// The parts of `duration`: a whole number, an optional tenth, and the unit.
    static func durationParts(_ ms: Int64) -> (whole: Int64, tenth: Int64?, unit: StaticString) {
        let magnitude = ms.magnitude
        if ms == 0 || magnitude < 1000 { return (ms, nil, "ms") }
        if ms % 3_600_000 == 0 { return (ms / 3_600_000, nil, "h") }
        if ms % 60_000 == 0 { return (ms / 60_000, nil, "min") }
        if ms % 1000 == 0 { return (ms / 1000, nil, "s") }
        if magnitude < 100_000 {
            let tenths = (ms + (ms >= 0 ? 50 : -50)) / 100
            return tenths % 10 == 0 ? (tenths / 10, nil, "s") : (tenths / 10, abs(tenths % 10), "s")
        }
        return ((ms + (ms >= 0 ? 500 : -500)) / 1000, nil, "s")
    }

    /// `1 alert`, `4 alerts`: the count and the noun, plural unless the count is 1.
    public static func count(_ count: some BinaryInteger, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    /// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
    public static func ordinal(_ number: some BinaryInteger) -> String {
        let value = Int(number)
        let suffix: String
        switch (value % 10, value % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(value)\(suffix)"
    }

    /// The most characters (Unicode scalars) of a text a message quotes (violations.md,
    /// "Messages are for designers"); a longer text is cut there and ends with `…`.
    public static let quotedLimit = 80

    /// How many leading bytes of `bytes` hold at most `quotedLimit` scalars, and whether that
    /// cut the text short.
    static func quotedPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> (count: Int, cut: Bool) {
        var scalars = 0
        for (index, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 {
            if scalars == quotedLimit { return (index, true) }
            scalars += 1
        }
        return (bytes.count, false)
    }

    /// A text quoted for a message, e.g. `“Delete All?”`, cut after 80 characters with `…`;
    /// `(none)` when absent.
    public static func quoted(_ text: Text) -> String {
        guard !text.isAbsent else { return "(none)" }
        let (count, cut) = quotedPrefix(text.bytes)
        guard !cut else {
            return "“" + String(decoding: UnsafeBufferPointer(rebasing: text.bytes[0..<count]), as: UTF8.self) + "…”"
        }
        // One allocation: the marks and the bytes written in place (invalid UTF-8 is
        // repaired as `String(decoding:as:)` repairs it).
        let bytes = text.bytes
        return String(unsafeUninitializedCapacity: bytes.count + 6) { buffer in
            buffer[0] = 0xE2  // “ U+201C
            buffer[1] = 0x80
            buffer[2] = 0x9C
            if let base = bytes.baseAddress {
                UnsafeMutableRawPointer(buffer.baseAddress! + 3).copyMemory(from: base, byteCount: bytes.count)
            }
            let end = 3 + bytes.count
            buffer[end] = 0xE2  // ” U+201D
            buffer[end + 1] = 0x80
            buffer[end + 2] = 0x9D
            return end + 3
        }
    }
}
