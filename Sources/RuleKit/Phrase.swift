/// Small wording helpers for one-sentence violation messages.
public enum Phrase {
    /// A duration for a person: whole seconds as `600 s`, anything else (and 0) as `1500 ms`.
    public static func duration(_ ms: Int64) -> String {
        ms != 0 && ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms"
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

    /// A text quoted for a message, e.g. `“Delete All?”`; `(none)` when absent.
    public static func quoted(_ text: Text) -> String {
        guard !text.isAbsent else { return "(none)" }
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
