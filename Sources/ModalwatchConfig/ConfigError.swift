/// One thing wrong in a configuration file: where, which key, and what to do.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The line (1-based), or 0 when the whole file is concerned.
    public var line: Int
    /// The key, dotted from the top (`rules.alert-frequency.limit`), or "" for the file.
    public var key: String
    /// What is wrong and what to do.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `FILE:LINE: KEY: MESSAGE`, always one line: line breaks and control characters
    /// in a key or a value the file gave are escaped.
    public var description: String {
        let place = line > 0 ? "\(file):\(line)" : file
        let key = Self.escaped(self.key)
        let message = Self.escaped(self.message)
        return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
    }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F, 0x85, 0x2028, 0x2029:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
