import ByteBasics
import ControlProtocol
import Foundation

/// Machine-readable output: one JSON value per line on stdout, keys sorted (the bytes
/// Foundation's `JSONSerialization` writes with `.sortedKeys` and `.withoutEscapingSlashes`:
/// `/` is written as it is, never `\/`).
enum JSONOutput {
    /// Writes `value` and a newline, at once (never half a line in a pipe).
    static func line(_ value: JSONValue) {
        raw(JSONWriter.encode(value, options: .withoutEscapingSlashes))
    }

    /// Writes an object and a newline, at once.
    static func line(_ object: [String: JSONValue]) {
        line(.object(object))
    }

    /// Writes a daemon's reply and a newline: its bytes as the daemon sent them, but for `\/`,
    /// written `/` (the control protocol's bytes escape it; the value is the same).
    static func reply(_ bytes: [UInt8]) {
        raw(unescapingSlashes(bytes))
    }

    /// Writes JSON bytes, and a newline; what a terminal would act on is escaped (`escaped`).
    static func raw(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(escaped(bytes) + [0x0A]))
    }

    /// `json` (valid JSON, UTF-8) with every character ``Terminal/visible(_:)`` shows escaped
    /// that JSON's rules leave raw (DEL, C1, the bidirectional formatting characters, U+2028,
    /// U+2029) written as `\uXXXX`: such characters are only ever inside strings, so the
    /// value read back is the same, and the line is safe on a terminal.
    static func escaped(_ json: [UInt8]) -> [UInt8] {
        json.withUnsafeBufferPointer { bytes in
            var out: [UInt8] = []
            var copied = 0
            forEachEscape(in: bytes) { index, length, scalar in
                if copied == 0 && out.isEmpty { out.reserveCapacity(bytes.count + 32) }
                out.append(contentsOf: bytes[copied..<index])
                appendEscape(scalar, to: &out)
                copied = index + length
            }
            guard copied > 0 else { return json }
            out.append(contentsOf: bytes[copied...])
            return out
        }
    }

    /// Appends `json` to `out` written as ``escaped(_:)`` writes it, without a copy of its own.
    static func appendEscaped(_ json: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let bytes = json.assumingMemoryBound(to: UInt8.self)
        var copied = 0
        forEachEscape(in: bytes) { index, length, scalar in
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
            appendEscape(scalar, to: &out)
            copied = index + length
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
    }

    /// `\uXXXX` for `scalar` (at most U+FFFF).
    private static func appendEscape(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let hex = Array(String(scalar.value, radix: 16).utf8)
        out += Array("\\u".utf8) + Array(repeating: UInt8(ascii: "0"), count: 4 - hex.count) + hex
    }

    /// Calls `body` with the offset, length and scalar of each character of `bytes` that
    /// ``escaped(_:)`` writes as `\uXXXX`, in order.
    private static func forEachEscape(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, Int, Unicode.Scalar) -> Void)
    {
        var index = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else { return }
        while index < count {
            // Straight to the next byte that is 0x7F or above, 16 bytes at a time.
            index = StringBytes.firstAtLeast7F(base, from: index, count: count)
            if index == count { break }
            let byte = bytes[index]
            // U+2000–U+207F (curly quotes, dashes, the ellipsis): only U+200E/F, U+2028–202E and
            // U+2066–2069 are escaped, told from the two bytes after the lead.
            if byte == 0xE2 && index + 2 < count {
                let second = bytes[index + 1]
                let third = bytes[index + 2]
                if (second == 0x80 && !(third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third))
                    && third & 0xC0 == 0x80)
                    || (second == 0x81 && !(0xA6...0xA9).contains(third) && third & 0xC0 == 0x80)
                {
                    index += 3
                    continue
                }
            }
            // Every such character starts with one of these bytes in UTF-8.
            guard byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 else {
                index += 1
                // The rest of a character (its continuation bytes) is copied as it is.
                while index < count && bytes[index] & 0xC0 == 0x80 { index += 1 }
                continue
            }
            let (scalar, length) = candidate(bytes, at: index)
            guard let scalar else {
                index += 1
                continue
            }
            if Terminal.needsEscape(scalar) { body(index, length, scalar) }
            index += length
        }
    }

    /// The character at `index` and its length in bytes when it may be one of those
    /// ``escaped(_:)`` writes as `\uXXXX` (DEL, C1, U+061C, U+200E/F, U+2028–202E,
    /// U+2066–2069: one, two or three bytes led by 0x7F, 0xC2, 0xD8 or 0xE2); nil otherwise,
    /// and the byte is copied as it is.
    private static func candidate(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar?, Int) {
        func continuation(_ offset: Int) -> UInt32? {
            guard index + offset < bytes.count, bytes[index + offset] & 0xC0 == 0x80 else { return nil }
            return UInt32(bytes[index + offset] & 0x3F)
        }
        let lead = bytes[index]
        switch lead {
        case 0x7F:
            return (Unicode.Scalar(0x7F as UInt8), 1)
        case 0xC2, 0xD8:
            guard let second = continuation(1) else { return (nil, 1) }
            return (Unicode.Scalar(UInt32(lead & 0x1F) << 6 | second), 2)
        case 0xE2:
            guard let second = continuation(1), let third = continuation(2) else { return (nil, 1) }
            return (Unicode.Scalar(UInt32(lead & 0x0F) << 12 | second << 6 | third), 3)
        default:
            return (nil, 1)
        }
    }

    /// `bytes` with each `\/` escape written `/`; every other escape (`\\` among them) kept.
    /// A backslash occurs in JSON only inside a string, always as the first byte of an escape.
    static func unescapingSlashes(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(0x5C) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x5C, index + 1 < bytes.count {
                let next = bytes[index + 1]
                if next != 0x2F { out.append(byte) }
                out.append(next)
                index += 2
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }
}
