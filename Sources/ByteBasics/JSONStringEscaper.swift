internal import CByteClasses

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
    /// `maxEscapedLength(bytes.count)` bytes; returns how many it wrote (`mw_json_escape`: plain
    /// bytes 16 at a time, and it may write past what it returns, inside that room).
    public static func writeEscaped(
        _ bytes: UnsafeRawBufferPointer,
        to out: UnsafeMutablePointer<UInt8>,
        escapingLineSeparators: Bool = false
    ) -> Int {
        guard let raw = bytes.baseAddress, bytes.count > 0 else { return 0 }
        return mw_json_escape(raw.assumingMemoryBound(to: UInt8.self), bytes.count, out, escapingLineSeparators ? 1 : 0)
    }
}
