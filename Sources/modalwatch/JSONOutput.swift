import ControlProtocol
import Foundation

/// Machine-readable output: one JSON value per line on stdout, keys sorted (the bytes
/// Foundation's `JSONSerialization` writes with `.sortedKeys`, as the daemon's replies).
enum JSONOutput {
    /// Writes `value` and a newline, at once (never half a line in a pipe).
    static func line(_ value: JSONValue) {
        raw(JSONWriter.encode(value))
    }

    /// Writes an object and a newline, at once.
    static func line(_ object: [String: JSONValue]) {
        raw(JSONWriter.encode(object))
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
}
