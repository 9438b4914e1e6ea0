import Glibc

/// Top-level string fields read straight out of a violation's JSON as the engine writes it,
/// without building an object: the engine writes `,"subject":` and `,"message":` as keys, and a
/// string value can never contain `,"key":` unescaped (its quotes are escaped), so the first
/// match is the key.
public enum ViolationJSON: Sendable {
    /// The string value of top-level `key`; nil when absent or null.
    public static func string(_ key: StaticString, in json: UnsafeRawBufferPointer) -> String? {
        // Look for `,"` key `":`: memchr to each comma, memcmp there (a byte loop cost most of a million-row report).
        var pattern: [UInt8] = [0x2C, 0x22]
        pattern.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        pattern.append(contentsOf: [0x22, 0x3A])
        guard let base = json.baseAddress, json.count > pattern.count else { return nil }
        return pattern.withUnsafeBytes { needle -> String? in
            var offset = 0
            while offset + needle.count <= json.count,
                let comma = memchr(base + offset, 0x2C, json.count - offset - needle.count + 1)
            {
                let at = UnsafeRawPointer(comma) - base
                if memcmp(comma, needle.baseAddress!, needle.count) == 0 {
                    return decodeString(json, from: at + needle.count)
                }
                offset = at + 1
            }
            return nil
        }
    }

    /// The JSON string starting at `start` (at its opening quote), unescaped; nil for anything else.
    static func decodeString(_ json: UnsafeRawBufferPointer, from start: Int) -> String? {
        guard start < json.count, json[start] == 0x22 else { return nil }
        var bytes: [UInt8] = []
        var i = start + 1
        while i < json.count {
            let byte = json[i]
            if byte == 0x22 { return String(decoding: bytes, as: UTF8.self) }
            if byte != 0x5C {
                bytes.append(byte)
                i += 1
                continue
            }
            guard i + 1 < json.count else { return nil }
            let escaped = json[i + 1]
            i += 2
            switch escaped {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(json, at: i) else { return nil }
                i += 4
                if (0xD800..<0xDC00).contains(scalar), i + 6 <= json.count, json[i] == 0x5C,
                    json[i + 1] == UInt8(ascii: "u"),
                    let low = hex4(json, at: i + 2), (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                bytes.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
            default: bytes.append(escaped)
            }
        }
        return nil
    }

    private static func hex4(_ json: UnsafeRawBufferPointer, at i: Int) -> UInt32? {
        guard i + 4 <= json.count else { return nil }
        var value: UInt32 = 0
        for j in 0..<4 {
            let c = json[i + j]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}
