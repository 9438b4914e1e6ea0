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
        // Every such character starts with one of these bytes in UTF-8.
        guard json.contains(where: { $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }) else { return json }
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 32)
        for scalar in String(decoding: json, as: UTF8.self).unicodeScalars {
            if scalar.value >= 0x20, Terminal.needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += Array("\\u\(String(repeating: "0", count: 4 - hex.count))\(hex)".utf8)
            } else {
                out.append(contentsOf: scalar.utf8)
            }
        }
        return out
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
