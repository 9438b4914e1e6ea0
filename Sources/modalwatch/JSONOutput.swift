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

    /// Writes JSON bytes as they are, and a newline.
    static func raw(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes + [0x0A]))
    }
}
