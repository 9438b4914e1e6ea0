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

    /// Writes JSON bytes as they are, and a newline.
    static func raw(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes + [0x0A]))
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
