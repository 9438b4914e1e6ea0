import Foundation

/// Machine-readable output: one JSON value per line on stdout, keys sorted.
enum JSONOutput {
    /// Writes `object` and a newline, at once (never half a line in a pipe).
    static func line(_ object: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        FileHandle.standardOutput.write(data + Data([0x0A]))
    }

    /// Writes JSON bytes as they are, and a newline.
    static func raw(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes + [0x0A]))
    }
}
